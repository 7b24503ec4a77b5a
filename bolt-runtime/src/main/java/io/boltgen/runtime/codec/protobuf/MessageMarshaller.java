package io.boltgen.runtime.codec.protobuf;

import com.google.protobuf.MessageLite;
import com.google.protobuf.Parser;
import io.boltgen.runtime.codec.Marshaller;
import io.netty.buffer.ByteBuf;
import java.util.Objects;

/**
 * A {@link Marshaller} of a protobuf-java generated message type, for hand-built services whose request or
 * response is such a message: {@code MessageMarshaller.of(Order.parser())}. It serializes straight into
 * the frame buffer's memory and parses straight from it (no aliasing: the message keeps no reference to
 * the buffer). A {@code null} value travels as zero bytes and reads back as the default instance.
 *
 * @param <M> the message type
 */
public final class MessageMarshaller<M extends MessageLite> implements Marshaller<M> {

  private final Parser<M> parser;

  private MessageMarshaller(Parser<M> parser) {
    this.parser = Objects.requireNonNull(parser, "parser");
  }

  /** A marshaller parsing with {@code parser} (for example {@code Order.parser()}). */
  public static <M extends MessageLite> MessageMarshaller<M> of(Parser<M> parser) {
    return new MessageMarshaller<>(parser);
  }

  @Override
  public int encodedSize(M value) {
    return value == null ? 0 : value.getSerializedSize();
  }

  @Override
  public void write(M value, ByteBuf out) {
    if (value != null) {
      ProtoMessages.writeBody(value, value.getSerializedSize(), out);
    }
  }

  @Override
  public M read(ByteBuf in) {
    int length = in.readableBytes();
    M value = ProtoMessages.parse(parser, in, in.readerIndex(), length);
    in.skipBytes(length);
    return value;
  }
}
