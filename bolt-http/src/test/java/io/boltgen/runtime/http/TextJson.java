package io.boltgen.runtime.http;

import static io.boltgen.runtime.EchoService.bytes;
import static io.boltgen.runtime.EchoService.string;

import io.boltgen.json.JsonFields;
import io.boltgen.json.JsonForms;
import io.boltgen.json.JsonMarshaller;
import io.boltgen.json.JsonReader;
import io.boltgen.json.JsonWriter;
import io.boltgen.runtime.MethodDescriptor;
import java.util.function.UnaryOperator;

/** The JSON form of the runtime's raw-bytes test services ({@code EchoService}), which HTTP serves them with. */
public final class TextJson {

  private static final JsonFields FIELDS = JsonFields.of("test.Echo's message", "text");

  /** The raw bytes as {@code {"text": "<the bytes as UTF-8>"}}; an empty message is {@code {}}. */
  public static final JsonMarshaller<byte[]> TEXT_JSON = new JsonMarshaller<>() {
    @Override
    public void write(byte[] value, JsonWriter out) {
      out.writeStartObject();
      if (value != null && value.length > 0) {
        out.writeName(FIELDS, 0);
        out.writeString(string(value));
      }
      out.writeEndObject();
    }

    @Override
    public byte[] read(JsonReader in) {
      byte[] text = new byte[0];
      for (int field = in.beginObject(FIELDS); field >= 0; field = in.nextField(FIELDS)) {
        if (!in.isNull()) {
          text = bytes(in.readString());
        }
      }
      return text;
    }
  };

  /** Adds {@link #TEXT_JSON} as a method's request and response forms: for {@code EchoService}'s builders. */
  public static final UnaryOperator<MethodDescriptor.Builder<byte[], byte[]>> FORMS =
      builder -> builder.extension(JsonForms.class, JsonForms.of(TEXT_JSON, TEXT_JSON));

  private TextJson() {}
}
