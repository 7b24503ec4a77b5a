package io.boltgen.runtime.codec.protobuf;

import io.boltgen.runtime.codec.Marshaller;
import io.netty.buffer.ByteBuf;
import java.util.Objects;

/**
 * The {@link Marshaller} of a generated codec: protobuf wire format (codec id {@value Marshaller#PROTOBUF}),
 * built from the three static functions the processor generates per message. Immutable and thread-safe.
 *
 * <pre>{@code
 * static final Marshaller<Stock> STOCK =
 *     ProtoMarshaller.of("demo.inventory.Stock", Codecs::sizeStock, Codecs::writeStock, Codecs::readStock);
 * }</pre>
 *
 * <p>{@link #encodedSize} runs the size pass and keeps the recorded lengths on the calling thread;
 * {@link #write} of the same value right after reuses them (see {@link ProtoEncoder}). {@link #read} reads
 * every readable byte of its buffer, skipping unknown fields, and moves its reader index to the end.
 *
 * @param <T> the type carried
 */
public final class ProtoMarshaller<T> implements Marshaller<T> {

  private final String messageName;
  private final Sizer<T> sizer;
  private final Writer<T> writer;
  private final ProtoDecoder.MessageReader<T> reader;

  private ProtoMarshaller(String messageName, Sizer<T> sizer, Writer<T> writer, ProtoDecoder.MessageReader<T> reader) {
    this.messageName = Objects.requireNonNull(messageName, "messageName");
    this.sizer = Objects.requireNonNull(sizer, "sizer");
    this.writer = Objects.requireNonNull(writer, "writer");
    this.reader = Objects.requireNonNull(reader, "reader");
  }

  /**
   * A marshaller of the message {@code messageName} (its full name in the generated {@code .proto}, used in
   * error messages) from its generated size, write and read functions.
   */
  public static <T> ProtoMarshaller<T> of(
      String messageName, Sizer<T> sizer, Writer<T> writer, ProtoDecoder.MessageReader<T> reader) {
    return new ProtoMarshaller<>(messageName, sizer, writer, reader);
  }

  @Override
  public int encodedSize(T value) {
    ProtoEncoder e = ProtoEncoder.acquire();
    try {
      return e.size(value, sizer);
    } finally {
      e.release();
    }
  }

  @Override
  public void write(T value, ByteBuf out) {
    ProtoEncoder e = ProtoEncoder.acquire();
    try {
      e.write(value, sizer, writer, out);
    } finally {
      e.release();
    }
  }

  @Override
  public T read(ByteBuf in) {
    ProtoDecoder d = ProtoDecoder.acquire(in);
    try {
      T value = reader.read(d);
      in.readerIndex(d.position());
      return value;
    } catch (ProtoDecodeException e) {
      throw new ProtoDecodeException("could not decode " + messageName + ": " + e.getMessage(), e);
    } finally {
      d.release();
    }
  }

  @Override
  public String toString() {
    return "ProtoMarshaller{" + messageName + '}';
  }

  /**
   * The size pass of one message: returns its exact encoded size (without its own tag and length) and
   * records lengths in {@code encoder} in pre-order. Accepts {@code null} for an empty message.
   *
   * @param <T> the type sized
   */
  @FunctionalInterface
  public interface Sizer<T> {
    /** The exact encoded size of {@code value}'s fields. */
    int size(T value, ProtoEncoder encoder);
  }

  /**
   * The write pass of one message: appends its fields in the order its {@link Sizer} visited them.
   *
   * @param <T> the type written
   */
  @FunctionalInterface
  public interface Writer<T> {
    /** Appends {@code value}'s fields. */
    void write(T value, ProtoEncoder encoder);
  }
}
