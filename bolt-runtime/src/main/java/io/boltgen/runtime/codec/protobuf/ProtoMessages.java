package io.boltgen.runtime.codec.protobuf;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageLite;
import com.google.protobuf.Parser;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Embedded protobuf-java messages: the only class generated code calls for a field, argument or result whose
 * type is a protobuf-java generated {@code Message}. protobuf-java is an optional dependency of the runtime:
 * it is needed, and this class is loaded, only where such a type is used. {@link ProtoEncoder},
 * {@link ProtoDecoder} and {@link ProtoSizes}, which every generated codec loads, never refer to it.
 *
 * <p>A generated codec sizes a message field with {@code size += TAG_SIZE + ProtoMessages.size(value);},
 * writes it with {@code e.writeTag(TAG); ProtoMessages.write(e, value);} and reads it with
 * {@code ProtoMessages.read(d, Order.parser())}. Only API present in both protobuf-java 3.25 and 4.x is used.
 */
public final class ProtoMessages {

  private ProtoMessages() {}

  /** The size of an embedded message: its length prefix and its (memoized) serialized size. */
  public static int size(MessageLite value) {
    int size = value.getSerializedSize();
    return ProtoSizes.varint32(size) + size;
  }

  /**
   * Writes an embedded message: its length and its bytes, serialized by protobuf-java straight into the
   * encoder's target memory.
   */
  public static void write(ProtoEncoder e, MessageLite value) {
    int size = value.getSerializedSize();
    e.writeVarint32(size);
    if (size > 0) {
      serialize(value, e.claim(size));
    }
  }

  /**
   * Reads an embedded message with {@code parser} (for example {@code Order.parser()}), which reads straight
   * from the buffer's memory without aliasing it: the message keeps no reference to the buffer.
   */
  public static <M extends MessageLite> M read(ProtoDecoder d, Parser<M> parser) {
    int start = d.skipEmbedded();
    return parse(parser, d.buffer(), start, d.position() - start);
  }

  /** Writes a whole message of {@code size} bytes as a call's content (no length prefix). */
  static void writeBody(MessageLite value, int size, ByteBuf out) {
    if (size == 0) {
      return;
    }
    out.ensureWritable(size);
    int index = out.writerIndex();
    if (out.nioBufferCount() == 1) {
      serialize(value, out.nioBuffer(index, size));
      out.writerIndex(index + size);
    } else {
      out.writeBytes(value.toByteArray());
    }
  }

  /** Parses the {@code length} bytes of {@code buf} at {@code index} with {@code parser}. */
  static <M extends MessageLite> M parse(Parser<M> parser, ByteBuf buf, int index, int length) {
    try {
      if (length == 0) {
        return parser.parseFrom(ProtoDecoder.EMPTY_BYTES);
      }
      if (buf.nioBufferCount() == 1) {
        return parser.parseFrom(buf.nioBuffer(index, length));
      }
      byte[] copy = new byte[length];
      buf.getBytes(index, copy);
      return parser.parseFrom(copy);
    } catch (InvalidProtocolBufferException e) {
      throw new ProtoDecodeException("malformed embedded message: " + e.getMessage(), e);
    }
  }

  /** Serializes {@code value} with protobuf-java into exactly the remaining space of {@code target}. */
  private static void serialize(MessageLite value, ByteBuffer target) {
    CodedOutputStream stream = CodedOutputStream.newInstance(target);
    try {
      value.writeTo(stream);
      stream.flush();
    } catch (IOException e) {
      throw new IllegalStateException("could not serialize " + value.getClass().getName(), e);
    }
    stream.checkNoSpaceLeft();
  }
}
