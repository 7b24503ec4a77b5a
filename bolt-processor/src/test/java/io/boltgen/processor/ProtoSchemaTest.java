package io.boltgen.processor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.boltgen.processor.ProtoSchema.Field;
import io.boltgen.processor.ProtoSchema.Label;
import io.boltgen.processor.ProtoSchema.Range;
import io.boltgen.processor.ProtoSchema.Rpc;
import io.boltgen.processor.ProtoSchema.Value;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The parser on the golden {@code .proto} and on constructs the processor does not write (yet): imports,
 * well-known types, {@code oneof}, pinned and negative enum numbers, reserved ranges and names, options,
 * nested types; and {@link SchemaDiff} on those constructs, which only hand-written schemas can show.
 */
class ProtoSchemaTest {

  static String golden() throws IOException {
    try (InputStream in = ProtoSchemaTest.class.getResourceAsStream(
        "/golden/expected/META-INF/boltgen/demo.Inventory.proto")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** The 1-based line of the first line equal to {@code line} after the line starting with {@code after}. */
  private static int lineOf(String text, String after, String line) {
    List<String> lines = text.lines().toList();
    int from = 0;
    while (!lines.get(from).startsWith(after)) {
      from++;
    }
    return lines.subList(from, lines.size()).indexOf(line) + from + 1;
  }

  @Test
  void parsesTheGoldenProto() throws IOException {
    String golden = golden();
    ProtoSchema s = ProtoSchema.parse(golden);
    int stock = lineOf(golden, "message Stock {", "  SkuId id = 1;");
    assertThat(s.pkg()).isEqualTo("demo.inventory");
    assertThat(s.service()).isEqualTo("demo.Inventory");
    assertThat(s.version()).isEqualTo("1.0");
    assertThat(s.protoService()).isEqualTo("Inventory");
    assertThat(s.rpcs()).extracting(Rpc::name).containsExactly("get", "reserve", "watch", "audit", "search",
        "stockOf", "reserveAll", "track");
    assertThat(s.rpc("stockOf").streaming()).isEqualTo("stream");
    assertThat(s.rpc("reserveAll").streaming()).isEqualTo("client stream");
    assertThat(s.rpc("reserveAll").request()).isEqualTo("ReserveAllRequest");
    assertThat(s.rpc("track").streaming()).isEqualTo("bidi stream");
    assertThat(s.rpc("get").streaming()).isEqualTo("unary");
    assertThat(s.rpc("stockOf").response()).isEqualTo("StockOfResponse");
    assertThat(s.rpc("get")).isEqualTo(new Rpc("get", "GetRequest", "GetResponse", "demo.Inventory:1.0/get",
        "sync", lineOf(golden, "service", "  rpc get (GetRequest) returns (GetResponse);")));
    assertThat(s.rpc("audit").oneway()).isTrue();
    assertThat(s.rpc("reserve").style()).isEqualTo("future");
    assertThat(s.messages()).containsKeys("GetRequest", "AuditResponse", "SkuId", "Stock", "Reservation",
        "AuditEvent");
    assertThat(s.messages().get("AuditResponse").fields()).isEmpty();
    assertThat(s.messages().get("Stock").fields()).containsExactly(
        new Field("id", 1, Label.IMPLICIT, null, "SkuId", null, stock),
        new Field("available", 2, Label.IMPLICIT, null, "int32", null, stock + 1),
        new Field("warehouses", 3, Label.REPEATED, null, "string", null, stock + 2),
        new Field("reserved", 4, Label.MAP, "string", "int64", null, stock + 3),
        new Field("state", 5, Label.OPTIONAL, null, "StockState", null, stock + 4),
        new Field("lotsByWarehouse", 6, Label.MAP, "string", "List_Long", null, stock + 5));
    assertThat(s.messages().get("List_Long").javaName()).isEqualTo("java.util.List<java.lang.Long>");
    assertThat(s.messages().get("Stock").javaName()).isEqualTo("demo.Stock");
    assertThat(s.messages().get("Reservation").reserved()).containsExactly(new Range(3, 3));
    assertThat(s.messages().get("Reservation").reserves(3)).isTrue();
    assertThat(s.enums().get("StockState").values()).extracting(Value::name, Value::number).containsExactly(
        org.assertj.core.groups.Tuple.tuple("STOCK_STATE_UNKNOWN", 0),
        org.assertj.core.groups.Tuple.tuple("STOCK_STATE_IN_STOCK", 1),
        org.assertj.core.groups.Tuple.tuple("STOCK_STATE_SOLD_OUT", 2));
    assertThat(s.enums().get("StockState").javaName()).isEqualTo("demo.StockState");
    assertThat(s.messages().get("SearchResponse").fields().get(0).spelling()).isEqualTo("repeated Stock");
    assertThat(s.messages().get("Stock").field("reserved").spelling()).isEqualTo("map<string, int64>");
  }

  static final String RICH = String.join("\n",
      "/* A block comment",
      "   over two lines. */",
      "syntax = \"proto3\";",
      "package demo.events;",
      "import \"google/protobuf/timestamp.proto\";",
      "import public \"other.proto\";",
      "option java_package = \"demo.events\";",
      "option (my.opt) = { a: 1 b: \"x;y\" };",
      "service Events {",
      "  option deprecated = true;",
      "  // className demo.Events:2.1/publish, method code 77, oneway.",
      "  rpc publish (PublishRequest) returns (PublishResponse);",
      "  rpc tail (stream TailRequest) returns (stream Event) { option deprecated = true; }",
      "}",
      "message Event {",
      "  reserved 2, 9 to 11, 100 to max;",
      "  reserved \"old\", 'older';",
      "  google.protobuf.Timestamp at = 1;",
      "  .demo.events.Event.Kind kind = 3 [deprecated = true, json_name = \"k\"];",
      "  oneof body {",
      "    option (x) = 1;",
      "    string text = 4;",
      "    Payload payload = 5;",
      "  }",
      "  map<int32, Payload> parts = 6;",
      "  message Payload { bytes data = 1; }",
      "  enum Kind {",
      "    option allow_alias = true;",
      "    reserved 5, 7 to 8;",
      "    KIND_UNKNOWN = 0;",
      "    KIND_LATE = 3;",
      "    KIND_EARLY = -1 [deprecated = true];",
      "  }",
      "}",
      "message PublishRequest { Event event = 1; }",
      "message PublishResponse {}",
      "message TailRequest { optional string topic = 1; }",
      "");

  @Test
  void parsesImportsWellKnownTypesOneofsPinnedEnumsAndNestedTypes() {
    ProtoSchema s = ProtoSchema.parse(RICH);
    assertThat(s.imports()).containsExactly("google/protobuf/timestamp.proto", "other.proto");
    assertThat(s.service()).isEqualTo("demo.Events");
    assertThat(s.version()).isEqualTo("2.1");
    assertThat(s.rpcs()).extracting(Rpc::name, Rpc::request, Rpc::response).containsExactly(
        org.assertj.core.groups.Tuple.tuple("publish", "PublishRequest", "PublishResponse"),
        org.assertj.core.groups.Tuple.tuple("tail", "TailRequest", "Event"));
    // a baseline recorded when the comment also named a method code
    assertThat(s.rpc("publish").oneway()).isTrue();
    assertThat(s.rpc("publish").className()).isEqualTo("demo.Events:2.1/publish");
    assertThat(s.rpc("tail").className()).isNull();
    ProtoSchema.Message event = s.messages().get("Event");
    assertThat(event.field("at").type()).isEqualTo("google.protobuf.Timestamp");
    assertThat(s.local("google.protobuf.Timestamp")).isNull();
    assertThat(event.field("kind").type()).isEqualTo(".demo.events.Event.Kind");
    assertThat(s.local(event.field("kind").type())).isEqualTo("Event.Kind");
    assertThat(event.field("text").oneof()).isEqualTo("body");
    assertThat(event.field("payload").oneof()).isEqualTo("body");
    assertThat(event.field("parts").oneof()).isNull();
    assertThat(event.field("parts").spelling()).isEqualTo("map<int32, Payload>");
    assertThat(event.reserved()).containsExactly(new Range(2, 2), new Range(9, 11),
        new Range(100, ProtoSchema.MAX_NUMBER));
    assertThat(event.reservedNames()).containsExactlyInAnyOrder("old", "older");
    assertThat(s.messages()).containsKey("Event.Payload");
    ProtoSchema.EnumDef kind = s.enums().get("Event.Kind");
    assertThat(kind.values()).extracting(Value::name, Value::number).containsExactly(
        org.assertj.core.groups.Tuple.tuple("KIND_UNKNOWN", 0), org.assertj.core.groups.Tuple.tuple("KIND_LATE", 3),
        org.assertj.core.groups.Tuple.tuple("KIND_EARLY", -1));
    assertThat(kind.reserves(7)).isTrue();
    assertThat(kind.reserves(6)).isFalse();
  }

  @Test
  void syntaxErrorsNameTheLine() {
    assertThatThrownBy(() -> ProtoSchema.parse("syntax = \"proto3\";\nmessage A {\n  int32 = 1;\n}\n"))
        .isInstanceOf(ProtoParser.ParseException.class).hasMessage("line 3: expected a name, not '='");
    assertThatThrownBy(() -> ProtoSchema.parse("message A {\n  int32 a = 1;\n"))
        .isInstanceOf(ProtoParser.ParseException.class).hasMessageContaining("unexpected end of file");
    assertThatThrownBy(() -> ProtoSchema.parse("message A {\n  repeated group G = 1 {}\n}"))
        .hasMessage("line 2: groups are not supported");
  }

  private static List<SchemaDiff.Break> diff(String before, String after) {
    return new SchemaDiff(ProtoSchema.parse(before), ProtoSchema.parse(after), "base.proto").breaks();
  }

  private static String schema(String event) {
    return "syntax = \"proto3\";\npackage p;\nimport \"google/protobuf/timestamp.proto\";\n"
        + "service S {\n  rpc put (PutRequest) returns (PutResponse);\n}\n"
        + "message PutRequest { Event event = 1; }\nmessage PutResponse {}\n" + event + "\n";
  }

  @Test
  void movingExistingFieldsIntoAOneofBreaksButANewOneofAroundOneOldFieldDoesNot() {
    String before = schema("message Event { string text = 1; bytes data = 2; }");
    List<SchemaDiff.Break> breaks = diff(before,
        schema("message Event { oneof body { string text = 1; bytes data = 2; } }"));
    assertThat(breaks).extracting(SchemaDiff.Break::tag).containsExactly("OneofChanged", "OneofChanged");
    assertThat(breaks.get(0).message()).startsWith("field text of message Event (number 1) shared a oneof with []"
        + " in the baseline base.proto:9 and shares one with [2] now");
    assertThat(diff(before, schema("message Event { bytes data = 2; oneof body { string text = 1; int32 n = 3; } }")))
        .isEmpty();
  }

  @Test
  void wellKnownTypesCompareByFullName() {
    String before = schema("message Event { google.protobuf.Timestamp at = 1; }");
    assertThat(diff(before, schema("message Event { .google.protobuf.Timestamp at = 1; }"))).isEmpty();
    List<SchemaDiff.Break> breaks = diff(before, schema("message Event { google.protobuf.Duration at = 1; }"));
    assertThat(breaks).extracting(SchemaDiff.Break::tag).containsExactly("FieldRetyped");
    assertThat(breaks.get(0).message()).contains("was google.protobuf.Timestamp in the baseline base.proto:9 and is"
        + " google.protobuf.Duration now");
    assertThat(breaks.get(0).target()).isEqualTo(new SchemaDiff.Target(SchemaDiff.Kind.FIELD, null, "Event", "at"));
  }

  @Test
  void pinnedEnumNumbersAndReservedEnumValues() {
    String before = schema("message Event { K k = 1; }\nenum K { K_A = 0; K_C = 5; K_D = 6; }");
    assertThat(diff(before, schema("message Event { K k = 1; }\nenum K { K_A = 0; K_D = 6; K_C = 5; K_E = 7; }")))
        .as("order does not matter, pinned numbers do; appending is fine").isEmpty();
    assertThat(diff(before, schema("message Event { K k = 1; }\nenum K { reserved 5; K_A = 0; K_D = 6; }")))
        .as("a removed value whose number is reserved").isEmpty();
    assertThat(diff(before, schema("message Event { K k = 1; }\nenum K { K_A = 0; K_C = 6; K_D = 7; }")))
        .extracting(SchemaDiff.Break::tag).containsExactly("EnumValueRenumbered", "EnumValueRenumbered");
    String reserving = schema("message Event { K k = 1; }\nenum K { reserved 3; K_A = 0; }");
    assertThat(diff(reserving, schema("message Event { K k = 1; }\nenum K { K_A = 0; K_B = 3; }")))
        .extracting(SchemaDiff.Break::tag).containsExactly("EnumValueNumberReused");
  }

  @Test
  void reservedNumberRangesOfTheBaselineStayReserved() {
    String before = schema("message Event { reserved 4 to 6; string text = 1; }");
    List<SchemaDiff.Break> breaks = diff(before, schema("message Event { string text = 1; int64 at = 5; }"));
    assertThat(breaks).extracting(SchemaDiff.Break::tag).containsExactly("FieldNumberReused");
    assertThat(breaks.get(0).message()).startsWith("field at of message Event has number 5, which is reserved in"
        + " the baseline base.proto:9");
  }
}
