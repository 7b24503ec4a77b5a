package io.boltgen.json;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The names of one message's fields as its JSON object spells them, each at an index: made once per message by the
 * generated codec, so that {@link JsonWriter#writeName(JsonFields, int)} copies a name's bytes and
 * {@link JsonReader#nextField(JsonFields)} answers the index of the name it finds, never making its text.
 *
 * <p>A name is looked for first where the writer puts it: after the name before it in the table, with no whitespace
 * around it ({@code ,"name":}), compared as eight-byte words; any other spelling (whitespace, escapes, another order)
 * is read as text and found by a map. Each name is printable ASCII without quotes or backslashes, as the names of
 * a {@code .proto}'s fields are.
 *
 * <p>Immutable and thread-safe.
 */
public final class JsonFields {

  final String messageName;
  final String[] names;
  /** Per index, the name in quotes and its colon: {@code "name":}. */
  final byte[][] quoted;
  /** Per index, the first eight bytes of {@link #quoted} (fewer, masked by {@link #masks}), little-endian. */
  private final long[] heads;
  /** Per index, the last eight bytes of {@link #quoted} when it has more than eight. */
  private final long[] tails;
  private final long[] masks;
  private final Map<String, Integer> indices;

  private JsonFields(String messageName, String[] names) {
    this.messageName = messageName;
    this.names = names;
    this.quoted = new byte[names.length][];
    this.heads = new long[names.length];
    this.tails = new long[names.length];
    this.masks = new long[names.length];
    this.indices = new HashMap<>();
    for (int i = 0; i < names.length; i++) {
      String name = names[i];
      if (name.isEmpty() || !name.chars().allMatch(c -> c > ' ' && c < 0x7f && c != '"' && c != '\\')) {
        throw new IllegalArgumentException("field name " + JsonNumbers.shown(name, true) + " of " + messageName
            + ": a name in a table is printable ASCII without quotes, backslashes or spaces");
      }
      if (indices.putIfAbsent(name, i) != null) {
        throw new IllegalArgumentException("field name \"" + name + "\" of " + messageName + " is given twice");
      }
      byte[] bytes = ('"' + name + "\":").getBytes(StandardCharsets.US_ASCII);
      quoted[i] = bytes;
      int n = bytes.length;
      masks[i] = n >= 8 ? -1L : (1L << (8 * n)) - 1;
      heads[i] = n >= 8 ? (long) JsonStrings.LONGS.get(bytes, 0) : JsonStrings.head(bytes, 0, n, n);
      tails[i] = n > 8 ? (long) JsonStrings.LONGS.get(bytes, n - 8) : 0;
    }
  }

  /**
   * The table of message {@code messageName} (its full name in the emitted {@code .proto}, for errors) with these
   * names at indices 0, 1, …: the JSON names in field number order, as written, then any other name read
   * (a field's {@code .proto} name where it differs).
   *
   * @throws IllegalArgumentException if a name is empty, given twice, or not printable ASCII without {@code "} and
   *     {@code \}
   */
  public static JsonFields of(String messageName, String... names) {
    return new JsonFields(messageName, names.clone());
  }

  /** How many names it has. */
  int size() {
    return names.length;
  }

  /** The index of {@code name}, or -1. */
  int indexOf(String name) {
    Integer index = indices.get(name);
    return index == null ? -1 : index;
  }

  /** Whether {@code "name":} of index {@code i} is at {@code p} of {@code in}, which has {@code limit} bytes. */
  boolean isAt(int i, byte[] in, int p, int limit) {
    int n = quoted[i].length;
    if (p + n > limit) {
      return false;
    }
    if (n <= 8 && p + 8 <= limit) {
      return ((long) JsonStrings.LONGS.get(in, p) & masks[i]) == heads[i];
    }
    if (n > 8 && n <= 16) {
      return (long) JsonStrings.LONGS.get(in, p) == heads[i] && (long) JsonStrings.LONGS.get(in, p + n - 8) == tails[i];
    }
    return Arrays.equals(in, p, p + n, quoted[i], 0, n);
  }

  @Override
  public String toString() {
    return "JsonFields{" + messageName + ": " + String.join(", ", names) + '}';
  }
}
