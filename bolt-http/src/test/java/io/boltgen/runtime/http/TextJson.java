package io.boltgen.runtime.http;

import static io.boltgen.runtime.EchoService.bytes;
import static io.boltgen.runtime.EchoService.string;

import io.boltgen.json.JsonForms;
import io.boltgen.json.JsonMarshaller;
import io.boltgen.json.ProtoJsonException;
import io.boltgen.runtime.MethodDescriptor;
import java.util.function.UnaryOperator;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;

/** The JSON form of the runtime's raw-bytes test services ({@code EchoService}), which HTTP serves them with. */
public final class TextJson {

  /** The raw bytes as {@code {"text": "<the bytes as UTF-8>"}}; an empty message is {@code {}}. */
  public static final JsonMarshaller<byte[]> TEXT_JSON = new JsonMarshaller<>() {
    @Override
    public void write(byte[] value, JsonGenerator out) {
      out.writeStartObject();
      if (value != null && value.length > 0) {
        out.writeStringProperty("text", string(value));
      }
      out.writeEndObject();
    }

    @Override
    public byte[] read(JsonParser in, boolean ignoreUnknownFields) {
      if (in.currentToken() != JsonToken.START_OBJECT) {
        throw new ProtoJsonException("expected an object");
      }
      byte[] text = new byte[0];
      for (String name = in.nextName(); name != null; name = in.nextName()) {
        JsonToken value = in.nextToken();
        if (!name.equals("text")) {
          if (!ignoreUnknownFields) {
            throw new ProtoJsonException("unknown field \"" + name + "\" in test.Echo's message");
          }
          in.skipChildren();
        } else if (value == JsonToken.VALUE_STRING) {
          text = bytes(in.getString());
        } else if (value != JsonToken.VALUE_NULL) {
          throw new ProtoJsonException("field \"text\": expected a string");
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
