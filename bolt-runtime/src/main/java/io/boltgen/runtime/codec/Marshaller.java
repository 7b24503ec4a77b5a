package io.boltgen.runtime.codec;

import io.netty.buffer.ByteBuf;

/**
 * The serializer SPI: turns one type into the content bytes of a Bolt frame and back. Generated codecs
 * implement it for every argument tuple and result (codec id {@value #PROTOBUF}, protobuf wire format);
 * {@link RawBytesMarshaller} passes bytes through.
 *
 * <p>The runtime first asks {@link #encodedSize} for the exact size, allocates one pooled buffer for the
 * whole frame, and then calls {@link #write} to append exactly that many bytes: an implementation never
 * allocates an intermediate {@code byte[]}. {@link #read} gets a slice holding exactly the content; it
 * must not retain the slice (it is released right after), copying out whatever it keeps.
 *
 * <p>Implementations are stateless and thread-safe.
 *
 * @param <T> the type carried
 */
public interface Marshaller<T> {

  /** The codec id of the protobuf wire format, the one SOFARPC also uses for protobuf. */
  byte PROTOBUF = 11;

  /**
   * The codec id written into the frame's codec byte. A server refuses a request whose codec byte differs
   * from its method's marshaller with {@code SERVER_DESERIAL_EXCEPTION}.
   */
  default byte codecId() {
    return PROTOBUF;
  }

  /** The exact number of bytes {@link #write} will append for {@code value}. */
  int encodedSize(T value);

  /** Appends exactly {@link #encodedSize encodedSize(value)} bytes to {@code out}. */
  void write(T value, ByteBuf out);

  /**
   * Reads a value from all readable bytes of {@code in}.
   *
   * @throws RuntimeException if the bytes are malformed; the runtime reports it as a codec error
   */
  T read(ByteBuf in);
}
