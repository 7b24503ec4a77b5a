package io.boltgen.runtime.codec.protobuf;

/**
 * UTF-8 as the encoder writes it: a lone surrogate is one byte, {@code '?'}, and the character after it is
 * encoded as itself, as {@link String#getBytes(java.nio.charset.Charset)} and protobuf-java do.
 */
final class Utf8 {

  private Utf8() {}

  /** The UTF-8 length of {@code value}'s characters {@code from} to {@code to}, as {@link #encode} writes them. */
  static long length(String value, int from, int to) {
    long length = 0;
    for (int i = from; i < to; i++) {
      char c = value.charAt(i);
      if (c < 0x80) {
        length++;
      } else if (c < 0x800) {
        length += 2;
      } else if (Character.isSurrogate(c)) {
        if (Character.isHighSurrogate(c) && i + 1 < to && Character.isLowSurrogate(value.charAt(i + 1))) {
          length += 4;
          i++;
        } else {
          length++; // '?'
        }
      } else {
        length += 3;
      }
    }
    return length;
  }

  /**
   * Encodes the {@code n} characters of {@code value} as UTF-8 into {@code b} from {@code p}, which has room
   * for {@code 3 * n} bytes (the most they take); returns the index after the last byte written.
   */
  static int encode(String value, int n, byte[] b, int p) {
    int i = 0;
    for (char c; i < n && (c = value.charAt(i)) < 0x80; i++) {
      b[p++] = (byte) c;
    }
    for (; i < n; i++) {
      char c = value.charAt(i);
      if (c < 0x80) {
        b[p++] = (byte) c;
      } else if (c < 0x800) {
        b[p++] = (byte) (0xc0 | (c >> 6));
        b[p++] = (byte) (0x80 | (c & 0x3f));
      } else if (Character.isSurrogate(c)) {
        char low = i + 1 < n ? value.charAt(i + 1) : 0;
        if (Character.isHighSurrogate(c) && Character.isLowSurrogate(low)) {
          int cp = Character.toCodePoint(c, low);
          b[p++] = (byte) (0xf0 | (cp >> 18));
          b[p++] = (byte) (0x80 | ((cp >> 12) & 0x3f));
          b[p++] = (byte) (0x80 | ((cp >> 6) & 0x3f));
          b[p++] = (byte) (0x80 | (cp & 0x3f));
          i++;
        } else {
          b[p++] = (byte) '?';
        }
      } else {
        b[p++] = (byte) (0xe0 | (c >> 12));
        b[p++] = (byte) (0x80 | ((c >> 6) & 0x3f));
        b[p++] = (byte) (0x80 | (c & 0x3f));
      }
    }
    return p;
  }
}
