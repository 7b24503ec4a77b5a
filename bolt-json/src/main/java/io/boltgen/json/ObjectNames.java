package io.boltgen.json;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * The names found in the objects a {@link JsonLexer} is inside, so that a name given twice in one object is found.
 * A name found by its index in a table ({@link JsonFields}) below 64 is a bit of its object's; any other name is
 * kept by its text, each object's after its parent's, compared by hash in a list up to {@value #LISTED} names, then
 * in a set. The list is made when the first name by text comes.
 *
 * <p>Not thread-safe: one per document.
 */
final class ObjectNames {

  /** An object's names are checked against each other in a list up to this many, then in a set. */
  private static final int LISTED = 32;

  private String[] names;
  private int[] hashes;
  private int count;
  /** Per open container (by depth): the indices found below 64, where its names begin, its set past LISTED. */
  private long[] bits = new long[8];
  private int[] from = new int[8];
  private Set<String>[] sets = newSets(8);

  /** A container opens at {@code depth} (0 for the document's). */
  void open(int depth) {
    if (depth == from.length) {
      bits = Arrays.copyOf(bits, depth * 2);
      from = Arrays.copyOf(from, depth * 2);
      sets = Arrays.copyOf(sets, depth * 2);
    }
    bits[depth] = 0;
    from[depth] = count;
  }

  /** The container at {@code depth} closes: its names are forgotten. */
  void close(int depth) {
    count = from[depth];
    sets[depth] = null;
  }

  /** Adds the name at {@code index} of the table of the object at {@code depth}: whether it is new there. */
  boolean add(int depth, int index, String name) {
    if (index >= 64) {
      return add(depth, name);
    }
    long bit = 1L << index;
    if ((bits[depth] & bit) != 0) {
      return false;
    }
    bits[depth] |= bit;
    return true;
  }

  /**
   * Adds a name of the object at {@code depth} by its text: whether it is new there. An object's names found by
   * its table have no text here: a name by text it also has would be found by the table.
   */
  boolean add(int depth, String name) {
    Set<String> set = sets[depth];
    if (set != null) {
      return set.add(name);
    }
    if (names == null) {
      names = new String[16];
      hashes = new int[16];
    }
    int hash = name.hashCode();
    int first = from[depth];
    for (int i = first; i < count; i++) {
      if (hashes[i] == hash && names[i].equals(name)) {
        return false;
      }
    }
    if (count - first == LISTED) {
      set = new HashSet<>(Arrays.asList(names).subList(first, count));
      set.add(name);
      sets[depth] = set;
      return true;
    }
    if (count == names.length) {
      names = Arrays.copyOf(names, count * 2);
      hashes = Arrays.copyOf(hashes, count * 2);
    }
    names[count] = name;
    hashes[count++] = hash;
    return true;
  }

  @SuppressWarnings("unchecked") // an array of a generic type
  private static Set<String>[] newSets(int length) {
    return (Set<String>[]) new Set<?>[length];
  }
}
