package io.boltgen.processor;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the little the processor needs from a serialized {@code google.protobuf.FileDescriptorProto}: the
 * file's name (field 1), its package (2) and the full names of its messages (4, with their nested types,
 * field 3 of {@code DescriptorProto}). Skips everything else; throws {@link IllegalArgumentException} on
 * bytes that are not such a message.
 */
final class FileDescriptorReader {

  /** A file's name and the full names of all its messages, nested ones included. */
  record File(String name, List<String> messages) {}

  private final byte[] bytes;
  private int pos;

  private FileDescriptorReader(byte[] bytes) {
    this.bytes = bytes;
  }

  static File read(byte[] bytes) {
    FileDescriptorReader r = new FileDescriptorReader(bytes);
    String name = null;
    String pkg = "";
    List<int[]> messages = new ArrayList<>();
    while (r.pos < bytes.length) {
      int tag = (int) r.varint();
      if (tag == (1 << 3 | 2)) {
        name = r.string();
      } else if (tag == (2 << 3 | 2)) {
        pkg = r.string();
      } else if (tag == (4 << 3 | 2)) {
        messages.add(r.slice());
      } else {
        r.skip(tag & 7);
      }
    }
    if (name == null) {
      throw new IllegalArgumentException("no file name");
    }
    List<String> names = new ArrayList<>();
    for (int[] m : messages) {
      new FileDescriptorReader(bytes).message(m, pkg, names);
    }
    return new File(name, List.copyOf(names));
  }

  /** Adds the full name of the {@code DescriptorProto} at {@code range}, then those of its nested types. */
  private void message(int[] range, String scope, List<String> names) {
    pos = range[0];
    String name = null;
    List<int[]> nested = new ArrayList<>();
    while (pos < range[1]) {
      int tag = (int) varint();
      if (tag == (1 << 3 | 2)) {
        name = string();
      } else if (tag == (3 << 3 | 2)) {
        nested.add(slice());
      } else {
        skip(tag & 7);
      }
    }
    if (name == null) {
      throw new IllegalArgumentException("a message without a name");
    }
    String full = scope.isEmpty() ? name : scope + "." + name;
    names.add(full);
    for (int[] n : nested) {
      message(n, full, names);
    }
  }

  private long varint() {
    long value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      byte b = bytes[pos++];
      value |= (long) (b & 0x7f) << shift;
      if (b >= 0) {
        return value;
      }
    }
    throw new IllegalArgumentException("malformed varint");
  }

  /** The bounds [start, end) of a length-delimited value; moves past it. */
  private int[] slice() {
    int length = (int) varint();
    if (length < 0 || pos + length > bytes.length) {
      throw new IllegalArgumentException("truncated");
    }
    int[] range = {pos, pos + length};
    pos += length;
    return range;
  }

  private String string() {
    int[] r = slice();
    return new String(bytes, r[0], r[1] - r[0], StandardCharsets.UTF_8);
  }

  private void skip(int wireType) {
    switch (wireType) {
      case 0 -> varint();
      case 1 -> pos += 8;
      case 2 -> slice();
      case 5 -> pos += 4;
      default -> throw new IllegalArgumentException("unexpected wire type " + wireType);
    }
  }
}
