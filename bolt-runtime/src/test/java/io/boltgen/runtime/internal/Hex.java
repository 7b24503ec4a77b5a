package io.boltgen.runtime.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;

/** Builds byte sequences from a capture notation: hex digits, spaces, and "quoted ASCII". */
public final class Hex {

  private Hex() {}

  public static byte[] bytes(String capture) {
    ByteBuf out = Unpooled.buffer();
    try {
      int i = 0;
      while (i < capture.length()) {
        char c = capture.charAt(i);
        if (c == '"') {
          int end = capture.indexOf('"', i + 1);
          out.writeBytes(capture.substring(i + 1, end).getBytes(StandardCharsets.UTF_8));
          i = end + 1;
        } else if (Character.isWhitespace(c)) {
          i++;
        } else {
          out.writeByte(Integer.parseInt(capture.substring(i, i + 2), 16));
          i += 2;
        }
      }
      return ByteBufUtil.getBytes(out);
    } finally {
      out.release();
    }
  }

  public static String hex(ByteBuf buf) {
    return ByteBufUtil.hexDump(buf);
  }
}
