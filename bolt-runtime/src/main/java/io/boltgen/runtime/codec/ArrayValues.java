package io.boltgen.runtime.codec;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.RandomAccess;
import java.util.function.IntFunction;

/**
 * Arrays as the generated codecs carry them: a field declared {@code int[]}, {@code String[]} or {@code Point[]}
 * travels as its list of elements (a repeated field, a JSON array, a Hessian list). The readers collect a list
 * and turn it into the declared array here; the writers that need a collection view the array as one here,
 * without copying it.
 *
 * <p>Every function gives {@code null} for {@code null}: a codec that has no null (protobuf, JSON) passes the empty
 * list it read instead.
 */
public final class ArrayValues {

  private ArrayValues() {}

  /** The array of {@code list}'s elements, made by {@code make} ({@code Point[]::new}). */
  public static <E> E[] array(List<E> list, IntFunction<E[]> make) {
    return list == null ? null : list.toArray(make.apply(list.size()));
  }

  /** The {@code boolean[]} of {@code list}'s elements. */
  public static boolean[] booleans(List<Boolean> list) {
    if (list == null) {
      return null;
    }
    boolean[] array = new boolean[list.size()];
    for (int i = 0; i < array.length; i++) {
      array[i] = list.get(i);
    }
    return array;
  }

  /** The {@code short[]} of {@code list}'s elements. */
  public static short[] shorts(List<Short> list) {
    if (list == null) {
      return null;
    }
    short[] array = new short[list.size()];
    for (int i = 0; i < array.length; i++) {
      array[i] = list.get(i);
    }
    return array;
  }

  /** The {@code char[]} of {@code list}'s elements. */
  public static char[] chars(List<Character> list) {
    if (list == null) {
      return null;
    }
    char[] array = new char[list.size()];
    for (int i = 0; i < array.length; i++) {
      array[i] = list.get(i);
    }
    return array;
  }

  /** The {@code int[]} of {@code list}'s elements. */
  public static int[] ints(List<Integer> list) {
    return list == null ? null : list.stream().mapToInt(Integer::intValue).toArray();
  }

  /** The {@code long[]} of {@code list}'s elements. */
  public static long[] longs(List<Long> list) {
    return list == null ? null : list.stream().mapToLong(Long::longValue).toArray();
  }

  /** The {@code float[]} of {@code list}'s elements. */
  public static float[] floats(List<Float> list) {
    if (list == null) {
      return null;
    }
    float[] array = new float[list.size()];
    for (int i = 0; i < array.length; i++) {
      array[i] = list.get(i);
    }
    return array;
  }

  /** The {@code double[]} of {@code list}'s elements. */
  public static double[] doubles(List<Double> list) {
    return list == null ? null : list.stream().mapToDouble(Double::doubleValue).toArray();
  }

  /** {@code array} as a fixed-size list backed by it. */
  public static <E> List<E> list(E[] array) {
    return array == null ? null : Arrays.asList(array);
  }

  /** {@code array} as a read-only list backed by it. */
  public static List<Boolean> list(boolean[] array) {
    return array == null ? null : new View<>(array.length, i -> array[i]);
  }

  /** {@code array} as a read-only list backed by it. */
  public static List<Short> list(short[] array) {
    return array == null ? null : new View<>(array.length, i -> array[i]);
  }

  /** {@code array} as a read-only list backed by it. */
  public static List<Character> list(char[] array) {
    return array == null ? null : new View<>(array.length, i -> array[i]);
  }

  /** {@code array} as a read-only list backed by it. */
  public static List<Integer> list(int[] array) {
    return array == null ? null : new View<>(array.length, i -> array[i]);
  }

  /** {@code array} as a read-only list backed by it. */
  public static List<Long> list(long[] array) {
    return array == null ? null : new View<>(array.length, i -> array[i]);
  }

  /** {@code array} as a read-only list backed by it. */
  public static List<Float> list(float[] array) {
    return array == null ? null : new View<>(array.length, i -> array[i]);
  }

  /** {@code array} as a read-only list backed by it. */
  public static List<Double> list(double[] array) {
    return array == null ? null : new View<>(array.length, i -> array[i]);
  }

  /** A primitive array seen as a list of its boxes. */
  private static final class View<E> extends AbstractList<E> implements RandomAccess {
    private final int size;
    private final IntFunction<E> element;

    View(int size, IntFunction<E> element) {
      this.size = size;
      this.element = element;
    }

    @Override
    public E get(int index) {
      return element.apply(index);
    }

    @Override
    public int size() {
      return size;
    }
  }
}
