package io.boltgen.runtime.protocol;

import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.util.zip.CRC32;

/** CRC32 (zlib's, as SOFABolt computes it) over buffer bytes, read through NIO views without copying. */
final class Crc32 {

  private Crc32() {}

  /** The CRC32 of {@code length} bytes of {@code buf} from {@code index}, as a Java int. */
  static int of(ByteBuf buf, int index, int length) {
    CRC32 crc = new CRC32();
    if (buf.nioBufferCount() == 1) {
      crc.update(buf.nioBuffer(index, length));
    } else {
      for (ByteBuffer part : buf.nioBuffers(index, length)) {
        crc.update(part);
      }
    }
    return (int) crc.getValue();
  }
}
