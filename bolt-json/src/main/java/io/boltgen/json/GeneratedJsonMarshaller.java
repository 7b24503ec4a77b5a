package io.boltgen.json;

import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.Function;

/** {@link JsonMarshaller#of}: a generated message's JSON functions as a marshaller. */
final class GeneratedJsonMarshaller<T> implements JsonMarshaller<T> {

  private final String messageName;
  private final BiConsumer<T, JsonWriter> writer;
  private final Function<JsonReader, T> reader;

  GeneratedJsonMarshaller(String messageName, BiConsumer<T, JsonWriter> writer, Function<JsonReader, T> reader) {
    this.messageName = Objects.requireNonNull(messageName, "messageName");
    this.writer = Objects.requireNonNull(writer, "writer");
    this.reader = Objects.requireNonNull(reader, "reader");
  }

  @Override
  public void write(T value, JsonWriter out) {
    writer.accept(value, out);
  }

  /** Reads the message; an error outside its fields names it, unless another marshaller reads around it. */
  @Override
  public T read(JsonReader in) {
    if (in.messageName == null) {
      in.messageName = messageName;
    }
    return reader.apply(in);
  }

  @Override
  public String toString() {
    return "JsonMarshaller{" + messageName + '}';
  }
}
