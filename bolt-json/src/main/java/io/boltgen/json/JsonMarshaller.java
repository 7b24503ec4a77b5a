package io.boltgen.json;

import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * The JSON form of one type, by protobuf's canonical proto3 JSON mapping of the message the emitted
 * {@code .proto} declares for it. Generated beside every protobuf codec; {@link ProtoJson} reads and writes
 * whole documents with it.
 *
 * <p>Implementations are stateless and thread-safe.
 *
 * @param <T> the type carried
 */
public interface JsonMarshaller<T> {

  /**
   * Writes {@code value} as one JSON value.
   *
   * @throws IllegalArgumentException if the value holds what the mapping cannot express (an instant outside
   *     {@code google.protobuf.Timestamp}'s range, a {@code null} collection element)
   */
  void write(T value, JsonWriter out);

  /**
   * Reads one JSON value; {@code in}'s current token is the value's first, and is left on its last.
   *
   * @throws ProtoJsonException if the value does not follow the mapping
   */
  T read(JsonReader in);

  /**
   * The marshaller of the message {@code messageName} (its full name in the emitted {@code .proto}, for error
   * messages) from the two functions the processor generates for it: {@code writer} writes the value as a JSON
   * object, {@code reader} reads it from one through a {@link JsonReader}, which names the field of every error.
   */
  static <T> JsonMarshaller<T> of(String messageName, BiConsumer<T, JsonWriter> writer,
      Function<JsonReader, T> reader) {
    return new GeneratedJsonMarshaller<>(messageName, writer, reader);
  }
}
