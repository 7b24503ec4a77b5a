package io.boltgen.runtime.codec;

import io.netty.buffer.ByteBuf;

/**
 * Content passed through as a {@code byte[]}: no framing, no schema. A {@code null} array travels as zero
 * bytes and reads back as an empty array. Useful for tests, for services that bring their own encoding,
 * and for peers (such as SOFABolt with a custom serializer) that ship opaque bytes.
 */
public final class RawBytesMarshaller implements Marshaller<byte[]> {

  private static final byte[] EMPTY = new byte[0];

  private final byte codecId;

  private RawBytesMarshaller(byte codecId) {
    this.codecId = codecId;
  }

  /** A raw-bytes marshaller that declares codec id {@code codecId} on the wire. */
  public static RawBytesMarshaller withCodecId(byte codecId) {
    return new RawBytesMarshaller(codecId);
  }

  @Override
  public byte codecId() {
    return codecId;
  }

  @Override
  public int encodedSize(byte[] value) {
    return value == null ? 0 : value.length;
  }

  @Override
  public void write(byte[] value, ByteBuf out) {
    if (value != null) {
      out.writeBytes(value);
    }
  }

  @Override
  public byte[] read(ByteBuf in) {
    int length = in.readableBytes();
    if (length == 0) {
      return EMPTY;
    }
    byte[] bytes = new byte[length];
    in.readBytes(bytes);
    return bytes;
  }

  @Override
  public String toString() {
    return "RawBytesMarshaller{codecId=" + codecId + '}';
  }
}
