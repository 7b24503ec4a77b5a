package io.boltgen.json;

import io.boltgen.json.JsonLexer.Malformed;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The strings of a JSON document in UTF-8 bytes, for {@link JsonLexer}: where a plain run ends, what an escape and
 * a UTF-8 sequence may be (each checked, a failure a {@link Malformed}), and the text of a string with escapes.
 */
final class JsonStrings {

  /** Eight bytes of an array as a little-endian long. */
  static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long ONES = 0x0101010101010101L;
  private static final long HIGH_BITS = 0x8080808080808080L;

  private JsonStrings() {}

  /**
   * The offset of the first byte from {@code p} that ends a plain ASCII run of a string ({@code "}, {@code \},
   * a control character, or a byte of a longer UTF-8 character), or {@code limit}: eight bytes at a time, by the
   * bit tricks of finding a zero byte in a word (the lowest byte found is exact).
   */
  static int plainRun(byte[] in, int p, int limit) {
    while (p + 8 <= limit) {
      long x = (long) LONGS.get(in, p);
      long quote = x ^ 0x2222222222222222L;
      long backslash = x ^ 0x5c5c5c5c5c5c5c5cL;
      long ends = ((quote - ONES) & ~quote) | ((backslash - ONES) & ~backslash) | ((x - 0x2020202020202020L) & ~x)
          | x;
      ends &= HIGH_BITS;
      if (ends != 0) {
        return p + (Long.numberOfTrailingZeros(ends) >>> 3);
      }
      p += 8;
    }
    while (p < limit) {
      byte c = in[p];
      if (c < 0x20 || c == '"' || c == '\\') {
        return p;
      }
      p++;
    }
    return p;
  }

  /**
   * Whether the first {@code n} bytes of {@code b} (UTF-8) hold a byte JSON escapes in a string: {@code "},
   * {@code \} or a control character; eight bytes at a time, as {@link #plainRun} finds them.
   */
  static boolean needsEscape(byte[] b, int n) {
    int p = 0;
    for (; p + 8 <= n; p += 8) {
      long x = (long) LONGS.get(b, p);
      long quote = x ^ 0x2222222222222222L;
      long backslash = x ^ 0x5c5c5c5c5c5c5c5cL;
      if (((((quote - ONES) & ~quote) | ((backslash - ONES) & ~backslash) | ((x - 0x2020202020202020L) & ~x))
          & HIGH_BITS) != 0) {
        return true;
      }
    }
    for (; p < n; p++) {
      byte c = b[p];
      if (c >= 0 && (c < 0x20 || c == '"' || c == '\\')) {
        return true;
      }
    }
    return false;
  }

  /** The first {@code length} (below 8) bytes from {@code p}, little-endian. */
  static long head(byte[] in, int p, int length, int limit) {
    if (p + 8 <= limit) {
      return (long) LONGS.get(in, p) & ((1L << (8 * length)) - 1);
    }
    long x = 0;
    for (int i = length - 1; i >= 0; i--) {
      x = x << 8 | (in[p + i] & 0xff);
    }
    return x;
  }

  /** Checks the escape at {@code p}; the offset after it. */
  static int escape(byte[] in, int p, int limit) {
    if (p + 1 >= limit) {
      throw new Malformed(p, "the text ends inside a string");
    }
    switch (in[p + 1]) {
      case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
        return p + 2;
      case 'u':
        for (int i = p + 2; i < p + 6; i++) {
          if (i >= limit || Character.digit(in[i], 16) < 0) {
            throw new Malformed(p, "a \\u escape needs four hex digits");
          }
        }
        return p + 6;
      default:
        throw new Malformed(p, "unknown escape " + JsonLexer.shown(in[p + 1]));
    }
  }

  /** Checks the UTF-8 sequence at {@code p} (Unicode's table 3-7: no overlong form, no surrogate); the offset after. */
  static int utf8(byte[] in, int p, int limit) {
    int b0 = in[p] & 0xff;
    int length;
    int low = 0x80;
    int high = 0xbf;
    if (b0 >= 0xc2 && b0 <= 0xdf) {
      length = 2;
    } else if (b0 >= 0xe0 && b0 <= 0xef) {
      length = 3;
      low = b0 == 0xe0 ? 0xa0 : 0x80;
      high = b0 == 0xed ? 0x9f : 0xbf;
    } else if (b0 >= 0xf0 && b0 <= 0xf4) {
      length = 4;
      low = b0 == 0xf0 ? 0x90 : 0x80;
      high = b0 == 0xf4 ? 0x8f : 0xbf;
    } else {
      throw new Malformed(p, "invalid UTF-8: the byte 0x" + Integer.toHexString(b0) + " starts no character");
    }
    for (int i = 1; i < length; i++) {
      int b = p + i < limit ? in[p + i] & 0xff : -1;
      if (b < low || b > high) {
        throw new Malformed(p, "invalid UTF-8: a broken sequence after the byte 0x" + Integer.toHexString(b0));
      }
      low = 0x80;
      high = 0xbf;
    }
    return p + length;
  }

  /** The text of the string in {@code in[start..end)}, with escapes (checked already). */
  static String unescape(byte[] in, int start, int end) {
    StringBuilder out = new StringBuilder(end - start);
    int p = start;
    while (p < end) {
      int c = in[p];
      if (c == '\\') {
        char e = (char) in[p + 1];
        switch (e) {
          case 'b' -> out.append('\b');
          case 'f' -> out.append('\f');
          case 'n' -> out.append('\n');
          case 'r' -> out.append('\r');
          case 't' -> out.append('\t');
          case 'u' -> out.append((char) Integer.parseInt(new String(in, p + 2, 4, StandardCharsets.ISO_8859_1), 16));
          default -> out.append(e);
        }
        p += e == 'u' ? 6 : 2;
      } else if (c >= 0) {
        out.append((char) c);
        p++;
      } else {
        int next = utf8(in, p, end);
        out.append(new String(in, p, next - p, StandardCharsets.UTF_8));
        p = next;
      }
    }
    return out.toString();
  }
}
