package io.boltgen.json;

import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.Function;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;

/** {@link JsonMarshaller#of}: a generated message's JSON functions as a marshaller. */
final class GeneratedJsonMarshaller<T> implements JsonMarshaller<T> {

  private final String messageName;
  private final BiConsumer<T, JsonGenerator> writer;
  private final Function<JsonReader, T> reader;

  GeneratedJsonMarshaller(String messageName, BiConsumer<T, JsonGenerator> writer, Function<JsonReader, T> reader) {
    this.messageName = Objects.requireNonNull(messageName, "messageName");
    this.writer = Objects.requireNonNull(writer, "writer");
    this.reader = Objects.requireNonNull(reader, "reader");
  }

  @Override
  public void write(T value, JsonGenerator out) {
    writer.accept(value, out);
  }

  /** Reads the message; a failure of the parser inside it (not JSON, nested too deeply) names the field too. */
  @Override
  public T read(JsonParser in, boolean ignoreUnknownFields) {
    JsonReader r = new JsonReader(in, ignoreUnknownFields, messageName);
    try {
      return reader.apply(r);
    } catch (JacksonException e) {
      throw r.malformed(e);
    }
  }

  @Override
  public String toString() {
    return "JsonMarshaller{" + messageName + '}';
  }
}
