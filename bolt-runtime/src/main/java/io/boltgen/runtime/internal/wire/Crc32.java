package io.boltgen.runtime.internal.wire;

import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.FastThreadLocal;
import java.nio.ByteBuffer;
import java.util.zip.CRC32;

/**
 * CRC32 (zlib's, as SOFABolt computes it) over buffer bytes, read in place without copying: one {@link CRC32}
 * per thread, over a heap buffer's array or a direct buffer's internal NIO view where it has one.
 */
final class Crc32 {

  private static final FastThreadLocal<CRC32> CRC = new FastThreadLocal<>() {
    @Override
    protected CRC32 initialValue() {
      return new CRC32();
    }
  };

  private Crc32() {}

  /** The CRC32 of {@code length} bytes of {@code buf} from {@code index}, as a Java int. */
  static int of(ByteBuf buf, int index, int length) {
    CRC32 crc = CRC.get();
    crc.reset();
    if (buf.hasArray()) {
      crc.update(buf.array(), buf.arrayOffset() + index, length);
    } else if (buf.nioBufferCount() == 1) {
      ByteBuffer view;
      try {
        view = buf.internalNioBuffer(index, length);
      } catch (UnsupportedOperationException e) {
        view = buf.nioBuffer(index, length);
      }
      crc.update(view);
    } else {
      for (ByteBuffer part : buf.nioBuffers(index, length)) {
        crc.update(part);
      }
    }
    return (int) crc.getValue();
  }
}
