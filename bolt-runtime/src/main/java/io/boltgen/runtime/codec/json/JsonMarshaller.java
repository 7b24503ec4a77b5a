package io.boltgen.runtime.codec.json;

import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;

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

  /** Writes {@code value} as one JSON value. */
  void write(T value, JsonGenerator out);

  /**
   * Reads one JSON value; {@code in}'s current token is the value's first.
   *
   * @throws ProtoJsonException if the value does not follow the mapping
   */
  T read(JsonParser in, boolean ignoreUnknownFields);
}
