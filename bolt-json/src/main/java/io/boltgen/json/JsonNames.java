package io.boltgen.json;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The field names of messages that {@link JsonLexer} has read (not map keys), shared by all lexers, so that a
 * message's field names cost no allocation and no comparison of chars: {@value #SLOTS} names of at most
 * {@value #MAX_LENGTH} plain ASCII characters, in sets of four by a hash of their bytes; a new name replaces one of
 * its set's. Each name's {@code String} is the canonical one ({@link String#intern}), so that a generated codec's
 * {@code switch} finds its case by identity.
 *
 * <p>Each name also keeps, as guesses for the next document, the slot of the name that came after it in an object,
 * and of the one that came first in an object that was its value. A guess is whatever name that slot holds then,
 * checked byte for byte before it is used; the races on it are harmless, as a name's fields read unchecked are
 * final.
 */
final class JsonNames {

  /** The longest name kept, in bytes. */
  static final int MAX_LENGTH = 32;
  private static final int SET_BITS = 9;
  static final int SLOTS = 4 << SET_BITS;
  private static final Name[] NAMES = new Name[SLOTS];

  private JsonNames() {}

  /** The name in {@code in[start..end)} (plain ASCII, at most {@value #MAX_LENGTH} bytes), kept or now added. */
  static Name of(byte[] in, int start, int end, int limit) {
    int length = end - start;
    long head = length >= 8 ? (long) JsonStrings.LONGS.get(in, start) : JsonStrings.head(in, start, length, limit);
    long tail = length > 8 ? (long) JsonStrings.LONGS.get(in, end - 8) : 0;
    long hash = head * 0x9E3779B97F4A7C15L + tail * 0xC2B2AE3D27D4EB4FL + length;
    int set = (int) (hash >>> (64 - SET_BITS)) << 2;
    for (int i = set; i < set + 4; i++) {
      Name name = NAMES[i];
      if (name != null && name.spells(in, start, end)) {
        return name;
      }
    }
    int slot = set + (int) (hash & 3);
    Name name = new Name(Arrays.copyOfRange(in, start, end), slot);
    NAMES[slot] = name;
    return name;
  }

  /** The name in {@code slot} now, or {@code null} (and for -1): a guess, to be checked against the document. */
  static Name at(int slot) {
    return slot < 0 ? null : NAMES[slot];
  }

  /**
   * A kept name: its bytes, its text, its slot, and the guesses, as slots (-1 for none): a name no longer in the
   * table is held by nothing, so that the table bounds the memory, however the guesses were made.
   */
  static final class Name {
    final byte[] bytes;
    final String text;
    final int slot;
    /** The slot of the name that came after this one in an object. */
    int next = -1;
    /** The slot of the name that came first in an object that was this one's value. */
    int firstChild = -1;

    Name(byte[] bytes, int slot) {
      this.bytes = bytes;
      this.text = new String(bytes, StandardCharsets.ISO_8859_1).intern();
      this.slot = slot;
    }

    /** Whether its bytes and a closing quote are at {@code p} of {@code in}. */
    boolean isAt(byte[] in, int p, int limit) {
      return p + bytes.length < limit && in[p + bytes.length] == '"' && spells(in, p, p + bytes.length);
    }

    /** Whether {@code in[from..to)} are its bytes (a plain loop: names are short). */
    boolean spells(byte[] in, int from, int to) {
      if (to - from != bytes.length) {
        return false;
      }
      for (int i = 0; i < bytes.length; i++) {
        if (bytes[i] != in[from + i]) {
          return false;
        }
      }
      return true;
    }
  }
}
