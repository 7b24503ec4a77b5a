package io.boltgen.processor;

import io.boltgen.processor.Model.BytesType;
import io.boltgen.processor.Model.EnumType;
import io.boltgen.processor.Model.Field;
import io.boltgen.processor.Model.JdkType;
import io.boltgen.processor.Model.MapType;
import io.boltgen.processor.Model.Message;
import io.boltgen.processor.Model.MessageType;
import io.boltgen.processor.Model.Method;
import io.boltgen.processor.Model.OptionalType;
import io.boltgen.processor.Model.ProtoMessageType;
import io.boltgen.processor.Model.RepeatedType;
import io.boltgen.processor.Model.ScalarType;
import io.boltgen.processor.Model.Service;
import io.boltgen.processor.Model.StringType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Writes a service's OpenAPI 3.1 document: one path per method, the Connect unary route
 * {@code /<proto package>.<Service>/<rpc>} taking {@code POST} with the rpc's request message and answering its
 * response message (JSON by the proto3 mapping, or binary protobuf), a Connect error otherwise; every
 * message and enum of the emitted {@code .proto} as a schema named by its full proto name; an example
 * request per method. The document is deterministic: the order is the {@code .proto}'s.
 */
final class OpenApiWriter {

  private static final String CONNECT_ERROR = "connect.Error";
  private static final List<String> CODES = List.of("canceled", "unknown", "invalid_argument", "deadline_exceeded",
      "not_found", "already_exists", "permission_denied", "resource_exhausted", "failed_precondition", "aborted",
      "out_of_range", "unimplemented", "internal", "unavailable", "data_loss", "unauthenticated");

  private final Service service;
  private final Map<String, Message> messagesByName = new HashMap<>();

  OpenApiWriter(Service service) {
    this.service = service;
    for (Message m : service.messages()) {
      messagesByName.put(m.protoName(), m);
    }
  }

  /** The document's file name beside the {@code .proto}: {@code META-INF/boltgen/<interface>.openapi.json}. */
  static String fileName(com.palantir.javapoet.ClassName iface) {
    String proto = Names.protoFile(iface);
    return proto.substring(0, proto.length() - ".proto".length()) + ".openapi.json";
  }

  String write() {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("openapi", "3.1.0");
    Map<String, Object> info = new LinkedHashMap<>();
    info.put("title", service.serviceName());
    info.put("version", service.version());
    info.put("description", (service.javadoc() == null ? "" : service.javadoc().strip() + "\n\n")
        + "Connect unary calls on the Bolt port of Bolt service " + service.serviceName() + " " + service.version()
        + " (" + service.iface().canonicalName() + "), described by " + Names.protoFile(service.iface()) + "."
        + (service.methods().stream().anyMatch(m -> m.style().streams()) ? " A streaming method is marked"
            + " x-boltgen-streaming (server, client or bidi) and called by Connect's streaming protocol (a"
            + " bidirectional stream over HTTP/2 only), or by gRPC over HTTP/2." : ""));
    doc.put("info", info);
    Map<String, Object> paths = new LinkedHashMap<>();
    String protoService = service.protoPackage() + "." + service.protoServiceName();
    for (Method m : service.methods()) {
      paths.put("/" + protoService + "/" + m.wireMethodName(), Map.of("post", m.style().streams()
          ? streamingOperation(protoService, m) : operation(protoService, m)));
    }
    doc.put("paths", paths);
    Map<String, Object> schemas = new LinkedHashMap<>();
    for (Method m : service.methods()) {
      schemas.put(fullName(m.request().protoName()), messageSchema(m.request(), "The arguments of " + m.javaName() + "."));
      schemas.put(fullName(m.response().protoName()), messageSchema(m.response(),
          Model.resultNoun(m) + m.javaName() + "."));
    }
    for (Message message : service.messages()) {
      schemas.put(fullName(message.protoName()), messageSchema(message, message.javadoc()));
    }
    for (Model.Enumeration e : service.enums()) {
      Map<String, Object> schema = new LinkedHashMap<>();
      schema.put("type", "string");
      List<Object> names = new ArrayList<>();
      for (String constant : e.constants()) {
        names.add(enumValueName(e.protoName(), constant));
      }
      schema.put("enum", names);
      if (e.javadoc() != null) {
        schema.put("description", e.javadoc().strip());
      }
      schemas.put(fullName(e.protoName()), schema);
    }
    schemas.put(CONNECT_ERROR, connectError());
    doc.put("components", Map.of("schemas", schemas));
    StringBuilder out = new StringBuilder();
    JsonText.write(doc, out, "");
    return out.append('\n').toString();
  }

  /** What every operation starts with: its id, summary, description, tag and deprecation. */
  private Map<String, Object> operationHead(String protoService, Method m) {
    Map<String, Object> op = new LinkedHashMap<>();
    op.put("operationId", protoService + "." + m.wireMethodName());
    String javadoc = m.javadoc() == null ? "" : m.javadoc().strip();
    op.put("summary", firstSentence(javadoc, m.javaName()));
    op.put("description", (javadoc.isEmpty() ? "" : javadoc + "\n\n") + "Bolt className "
        + m.wireName(service.serviceName(), service.version()) + ", " + HolderWriter.style(m.style()) + "; timeout "
        + m.timeoutMillis() + " ms unless Connect-Timeout-Ms says otherwise.");
    op.put("tags", List.of(protoService));
    if (m.deprecated()) {
      op.put("deprecated", true);
    }
    return op;
  }

  private Map<String, Object> operation(String protoService, Method m) {
    Map<String, Object> op = operationHead(protoService, m);
    op.put("parameters", List.of(
        header("Connect-Protocol-Version", "The Connect protocol version: 1.", Map.of("type", "string", "enum", List.of("1"))),
        header("Connect-Timeout-Ms", "How long the caller waits, in milliseconds (1 to 10 digits).",
            Map.of("type", "string", "pattern", "^[0-9]{1,10}$"))));
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("schema", ref(fullName(m.request().protoName())));
    Object example = example(m.request(), new HashSet<>());
    json.put("example", example);
    Map<String, Object> requestContent = new LinkedHashMap<>();
    requestContent.put("application/json", json);
    requestContent.put("application/proto", binary(m.request().protoName()));
    op.put("requestBody", Map.of("required", true, "content", requestContent));
    Map<String, Object> responses = new LinkedHashMap<>();
    Map<String, Object> responseContent = new LinkedHashMap<>();
    responseContent.put("application/json", Map.of("schema", ref(fullName(m.response().protoName()))));
    responseContent.put("application/proto", binary(m.response().protoName()));
    responses.put("200", Map.of("description", m.voidResult() ? "Done (an empty message)." : "The result.",
        "content", responseContent));
    String errors = "A Connect error: its HTTP status follows its code.";
    if (!m.exceptions().isEmpty()) {
      List<String> declared = new ArrayList<>();
      for (Model.MappedException e : m.exceptions()) {
        declared.add(e.className().canonicalName());
      }
      errors += " A declared exception (" + String.join(", ", declared) + ") is failed_precondition (400), with a"
          + " detail whose type is the exception's class.";
    }
    responses.put("default", Map.of("description", errors,
        "content", Map.of("application/json", Map.of("schema", ref(CONNECT_ERROR)))));
    op.put("responses", responses);
    return op;
  }

  /**
   * A streaming method's operation, marked {@code x-boltgen-streaming}, as Connect's streaming protocol carries it:
   * each request and each answer in an envelope, then the end of the stream (a server stream's request is one
   * envelope; a client stream's are any number, over HTTP/1.1 or HTTP/2; a bidirectional stream's over HTTP/2 only).
   */
  private Map<String, Object> streamingOperation(String protoService, Method m) {
    Map<String, Object> op = operationHead(protoService, m);
    op.put("x-boltgen-streaming", m.style() == Model.Style.STREAM ? "server"
        : m.style() == Model.Style.CLIENT_STREAM ? "client" : "bidi");
    String prefix = "application/connect+";
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("schema", ref(fullName(m.request().protoName())));
    json.put("example", example(m.request(), new HashSet<>()));
    Map<String, Object> requestContent = new LinkedHashMap<>();
    requestContent.put(prefix + "json", json);
    requestContent.put(prefix + "proto", binary(m.request().protoName()));
    String framing = "in an envelope: a flag byte (0), the message's length in 4 bytes (big-endian), the message.";
    op.put("requestBody", Map.of("required", true, "description", (m.style().streamsRequests()
        ? "A stream of requests" + (m.style().streamsAnswers() ? " (over HTTP/2 only)" : "") + ", each "
        : "The request, ") + framing, "content", requestContent));
    Map<String, Object> responseContent = new LinkedHashMap<>();
    responseContent.put(prefix + "json", Map.of("schema", ref(fullName(m.response().protoName()))));
    responseContent.put(prefix + "proto", binary(m.response().protoName()));
    String answers = (m.style().streamsAnswers() ? "A stream of messages, each " : "The result, ") + framing
        + " Then the end of the stream: an envelope with flag 2 holding {\"error\": …, \"metadata\": …}, a failure's"
        + " Connect error there, the HTTP status 200.";
    op.put("parameters", List.of(header("Connect-Protocol-Version", "The Connect protocol version: 1.",
            Map.of("type", "string", "enum", List.of("1"))),
        header("Connect-Timeout-Ms", "How long the caller waits for the whole stream, in milliseconds.",
            Map.of("type", "string", "pattern", "^[0-9]{1,10}$"))));
    op.put("responses", Map.of("200", Map.of("description", answers, "content", responseContent)));
    return op;
  }

  private static Map<String, Object> header(String name, String description, Map<String, Object> schema) {
    Map<String, Object> h = new LinkedHashMap<>();
    h.put("name", name);
    h.put("in", "header");
    h.put("required", false);
    h.put("description", description);
    h.put("schema", schema);
    return h;
  }

  private Map<String, Object> binary(String protoName) {
    Map<String, Object> schema = new LinkedHashMap<>();
    schema.put("type", "string");
    schema.put("contentMediaType", "application/proto");
    schema.put("description", "The binary protobuf form of " + fullName(protoName) + ".");
    return Map.of("schema", schema);
  }

  private static String firstSentence(String javadoc, String fallback) {
    if (javadoc.isEmpty()) {
      return fallback;
    }
    int end = javadoc.indexOf(". ");
    int paragraph = javadoc.indexOf("\n\n");
    int cut = end < 0 ? paragraph : paragraph < 0 ? end + 1 : Math.min(end + 1, paragraph);
    return (cut < 0 ? javadoc : javadoc.substring(0, cut)).replace('\n', ' ').strip();
  }

  private String fullName(String protoName) {
    return protoName.contains(".") ? protoName : service.protoPackage() + "." + protoName;
  }

  private static Map<String, Object> ref(String name) {
    return Map.of("$ref", "#/components/schemas/" + name);
  }

  private static String enumValueName(String enumProtoName, String constant) {
    String simple = enumProtoName.substring(enumProtoName.lastIndexOf('.') + 1);
    return Names.upperSnake(simple) + "_" + constant;
  }

  private Map<String, Object> messageSchema(Message message, String description) {
    Map<String, Object> schema = new LinkedHashMap<>();
    schema.put("type", "object");
    if (description != null && !description.isBlank()) {
      schema.put("description", description.strip());
    }
    Map<String, Object> properties = new LinkedHashMap<>();
    for (Field f : message.fields()) {
      properties.put(Names.jsonName(f.name()), fieldSchema(f.type()));
    }
    schema.put("properties", properties);
    if (message.kind() == Model.MessageKind.ONEOF) {
      schema.put("maxProperties", 1);
    }
    schema.put("additionalProperties", false);
    return schema;
  }

  private Map<String, Object> fieldSchema(Model.Type t) {
    if (t instanceof RepeatedType r) {
      Map<String, Object> s = new LinkedHashMap<>();
      s.put("type", "array");
      s.put("items", fieldSchema(r.element()));
      if (r.set()) {
        s.put("uniqueItems", true);
      }
      return s;
    }
    if (t instanceof MapType m) {
      Map<String, Object> s = new LinkedHashMap<>();
      s.put("type", "object");
      s.put("additionalProperties", fieldSchema(m.value()));
      return s;
    }
    if (t instanceof OptionalType o) {
      return fieldSchema(o.value());
    }
    if (t instanceof ScalarType s && s.encoding() != Model.Encoding.PLAIN) {
      String proto = new ScalarKind(s).protoType();
      boolean unsigned = s.unsigned();
      if (s.scalar() == Model.Scalar.LONG) {
        return Map.of("type", "string", "format", proto, "description", unsigned
            ? "an unsigned 64-bit integer, 0 to 18446744073709551615: a string on output; a number is accepted too"
            : "a 64-bit integer: a string on output; a number is accepted too");
      }
      return unsigned ? Map.of("type", "integer", "format", proto, "minimum", 0, "maximum", 4294967295L)
          : Map.of("type", "integer", "format", proto);
    }
    if (t instanceof ScalarType s) {
      return switch (s.scalar()) {
        case BOOLEAN -> Map.of("type", "boolean");
        case LONG -> Map.of("type", "string", "format", "int64",
            "description", "a 64-bit integer: a string on output; a number is accepted too");
        case FLOAT -> Map.of("type", "number", "format", "float");
        case DOUBLE -> Map.of("type", "number", "format", "double");
        case CHAR -> Map.of("type", "integer", "minimum", 0, "maximum", 65535);
        case BYTE -> Map.of("type", "integer", "minimum", -128, "maximum", 127);
        case SHORT -> Map.of("type", "integer", "minimum", -32768, "maximum", 32767);
        default -> Map.of("type", "integer", "format", "int32");
      };
    }
    if (t instanceof StringType) {
      return Map.of("type", "string");
    }
    if (t instanceof BytesType) {
      return Map.of("type", "string", "contentEncoding", "base64");
    }
    if (t instanceof EnumType e) {
      return ref(fullName(e.protoName()));
    }
    if (t instanceof MessageType m) {
      return ref(fullName(m.protoName()));
    }
    if (t instanceof Model.NestedType n) {
      return ref(fullName(n.protoName()));
    }
    if (t instanceof ProtoMessageType p) {
      return Map.of("type", "object", "description", "protobuf message " + p.protoName() + " in its proto3 JSON form");
    }
    if (t instanceof JdkType j) {
      return switch (j.jdk()) {
        case INSTANT -> Map.of("type", "string", "format", "date-time",
            "description", "google.protobuf.Timestamp: RFC 3339 in UTC, e.g. 2024-02-29T10:15:30Z");
        case DATE -> Map.of("type", "string", "format", "date-time",
            "description", "google.protobuf.Timestamp of a java.util.Date: RFC 3339 in UTC to the millisecond");
        case SQL_TIMESTAMP -> Map.of("type", "string", "format", "date-time",
            "description", "google.protobuf.Timestamp of a java.sql.Timestamp: RFC 3339 in UTC");
        case DURATION -> Map.of("type", "string", "pattern", "^-?[0-9]+(\\.[0-9]{1,9})?s$",
            "description", "google.protobuf.Duration: seconds with an s, e.g. 1.5s");
        case UUID -> Map.of("type", "string", "format", "uuid");
        case LOCAL_DATE -> Map.of("type", "string", "format", "date");
        case URI -> Map.of("type", "string", "format", "uri");
        default -> Map.of("type", "string", "description", JdkKind.note(j.jdk()));
      };
    }
    throw new IllegalArgumentException("no schema for " + t);
  }

  /** An example message: every field with a plausible value, recursion cut where a message repeats. */
  private Object example(Message message, Set<String> open) {
    Map<String, Object> value = new LinkedHashMap<>();
    if (!open.add(message.protoName())) {
      return value;
    }
    for (Field f : message.fields()) {
      Object v = exampleOf(f.name(), f.type(), open);
      if (v != null) {
        value.put(Names.jsonName(f.name()), v);
      }
      if (message.kind() == Model.MessageKind.ONEOF && !value.isEmpty()) {
        break; // one member of a oneof
      }
    }
    open.remove(message.protoName());
    return value;
  }

  private Object exampleOf(String name, Model.Type t, Set<String> open) {
    if (t instanceof RepeatedType r) {
      Object element = exampleOf(name, r.element(), open);
      return element == null ? List.of() : List.of(element);
    }
    if (t instanceof MapType m) {
      Object v = exampleOf(name, m.value(), open);
      return v == null ? Map.of() : Map.of(m.key() instanceof ScalarType ? "1" : "key", v);
    }
    if (t instanceof OptionalType o) {
      return exampleOf(name, o.value(), open);
    }
    if (t instanceof ScalarType s) {
      return switch (s.scalar()) {
        case BOOLEAN -> false;
        case LONG -> "1";
        case FLOAT, DOUBLE -> 1.5;
        default -> 1;
      };
    }
    if (t instanceof StringType) {
      return name;
    }
    if (t instanceof BytesType) {
      return "AQID";
    }
    if (t instanceof EnumType e) {
      for (Model.Enumeration en : service.enums()) {
        if (en.protoName().equals(e.protoName()) && !en.constants().isEmpty()) {
          return enumValueName(en.protoName(), en.constants().get(en.numbers().indexOf(0) >= 0
              ? en.numbers().indexOf(0) : 0));
        }
      }
      return null;
    }
    if (t instanceof MessageType || t instanceof Model.NestedType) {
      Message nested = messagesByName.get(t instanceof MessageType m ? m.protoName()
          : ((Model.NestedType) t).protoName());
      return nested == null || open.contains(nested.protoName()) ? null : example(nested, open);
    }
    if (t instanceof JdkType j) {
      return switch (j.jdk()) {
        case INSTANT -> "2024-02-29T10:15:30Z";
        case DATE -> "2024-02-29T10:15:30.125Z";
        case SQL_TIMESTAMP -> "2024-02-29T10:15:30.123456789Z";
        case DURATION -> "1.5s";
        case BIG_DECIMAL -> "1.50";
        case BIG_INTEGER -> "12345678901234567890";
        case UUID -> "123e4567-e89b-12d3-a456-426614174000";
        case LOCAL_DATE -> "2024-02-29";
        case LOCAL_TIME -> "10:15:30";
        case LOCAL_DATE_TIME -> "2024-02-29T10:15:30";
        case URI -> "https://example.com/";
      };
    }
    return null;
  }

  private static Map<String, Object> connectError() {
    Map<String, Object> detail = new LinkedHashMap<>();
    detail.put("type", "object");
    Map<String, Object> detailProperties = new LinkedHashMap<>();
    detailProperties.put("type", Map.of("type", "string", "description",
        "the detail's type: for a declared exception, its Java class"));
    detailProperties.put("value", Map.of("type", "string", "contentEncoding", "base64"));
    detailProperties.put("debug", Map.of("type", "object", "description", "the detail as JSON"));
    detail.put("properties", detailProperties);
    Map<String, Object> properties = new LinkedHashMap<>();
    properties.put("code", Map.of("type", "string", "enum", new ArrayList<Object>(CODES)));
    properties.put("message", Map.of("type", "string"));
    properties.put("details", Map.of("type", "array", "items", detail));
    Map<String, Object> schema = new LinkedHashMap<>();
    schema.put("type", "object");
    schema.put("description", "A Connect error (connectrpc.com/docs/protocol).");
    schema.put("required", List.of("code"));
    schema.put("properties", properties);
    return schema;
  }
}
