package io.boltgen.runtime.internal.wire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The request/response header layout SOFARPC uses (its SimpleMapSerializer): repeated
 * {@code int32 keyLength, key, int32 valueLength, value}, UTF-8, no count prefix, ending where the header
 * ends; a length of -1 is a null string, 0 the empty one.
 *
 * <p>Stateless.
 */
public final class HeadersCodec {

  private HeadersCodec() {}

  /** {@code first}'s entries, then {@code second}'s (replacing equal keys); no copy when either is empty. */
  public static Map<String, String> merge(Map<String, String> first, Map<String, String> second) {
    if (first.isEmpty()) {
      return second;
    }
    if (second.isEmpty()) {
      return first;
    }
    Map<String, String> all = new LinkedHashMap<>(first);
    all.putAll(second);
    return all;
  }

  /** The encoded size of {@code header}; 0 for an empty map. */
  public static int encodedSize(Map<String, String> header) {
    if (header.isEmpty()) {
      return 0;
    }
    long size = 0;
    for (Map.Entry<String, String> e : header.entrySet()) {
      size += 8 + utf8Length(e.getKey()) + utf8Length(e.getValue());
    }
    if (size > Bolt.MAX_SHORT_LENGTH) {
      throw new IllegalArgumentException("header of " + size + " bytes exceeds the Bolt limit of 32767");
    }
    return (int) size;
  }

  /** Writes {@code header} into {@code out}. */
  public static void write(Map<String, String> header, ByteBuf out) {
    for (Map.Entry<String, String> e : header.entrySet()) {
      writeString(e.getKey(), out);
      writeString(e.getValue(), out);
    }
  }

  /**
   * Reads a header from all readable bytes of {@code in}: a read-only map in wire order.
   *
   * @throws IllegalArgumentException if the bytes are not in this layout
   */
  public static Map<String, String> read(ByteBuf in) {
    if (!in.isReadable()) {
      return Collections.emptyMap();
    }
    Map<String, String> header = new LinkedHashMap<>();
    while (in.isReadable()) {
      String key = readString(in);
      String value = readString(in);
      header.put(key, value);
    }
    return Collections.unmodifiableMap(header);
  }

  private static int utf8Length(String s) {
    return s == null ? 0 : ByteBufUtil.utf8Bytes(s);
  }

  private static void writeString(String s, ByteBuf out) {
    if (s == null) {
      out.writeInt(-1);
      return;
    }
    int length = ByteBufUtil.utf8Bytes(s);
    out.writeInt(length);
    // reserve exactly: writeUtf8 would ask for 3 bytes per char, more than an exact-size frame has
    ByteBufUtil.reserveAndWriteUtf8(out, s, length);
  }

  private static String readString(ByteBuf in) {
    if (in.readableBytes() < 4) {
      throw new IllegalArgumentException("truncated header");
    }
    int length = in.readInt();
    if (length == -1) {
      return null;
    }
    if (length < 0 || length > in.readableBytes()) {
      throw new IllegalArgumentException("bad header string length " + length);
    }
    String s = in.toString(in.readerIndex(), length, StandardCharsets.UTF_8);
    in.skipBytes(length);
    return s;
  }
}
