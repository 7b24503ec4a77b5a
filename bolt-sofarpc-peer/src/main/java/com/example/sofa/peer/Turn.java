package com.example.sofa.peer;

import com.example.sofa.hessian.Mood;
import com.example.sofa.hessian.Person;
import com.example.sofa.hessian.Tables;
import java.lang.reflect.Array;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What {@code GreetService.turn} answers, and the values the "arrays" check sends. */
@SuppressWarnings("JavaUtilDate") // a DTO's Date is what is tested
final class Turn {

  private Turn() {}

  /** Every array and the rows reversed (null stays null), then {@code extra} after the ints; byName as it came. */
  static Tables of(Tables t, int[] extra) {
    Object[] v = t.values();
    for (int i = 0; i < v.length; i++) {
      if (v[i] != null && v[i].getClass().isArray()) {
        v[i] = reversed(v[i]);
      }
    }
    int[] ints = (int[]) v[0];
    if (ints != null && extra != null) {
      int[] joined = Arrays.copyOf(ints, ints.length + extra.length);
      System.arraycopy(extra, 0, joined, ints.length, extra.length);
      v[0] = joined;
    }
    return new Tables((int[]) v[0], (long[]) v[1], (boolean[]) v[2], (short[]) v[3], (char[]) v[4],
        (float[]) v[5], (double[]) v[6], (Integer[]) v[7], (String[]) v[8], (byte[][]) v[9], (Person[]) v[10],
        (Mood[]) v[11], (BigDecimal[]) v[12], (Date[]) v[13], (int[][]) v[14], rows(v[15]), byName(v[16]));
  }

  @SuppressWarnings("unchecked") // Tables.values() holds the rows there
  private static List<List<String>> rows(Object rows) {
    if (rows == null) {
      return null;
    }
    List<List<String>> turned = new ArrayList<>((List<List<String>>) rows);
    Collections.reverse(turned);
    return turned;
  }

  @SuppressWarnings("unchecked") // Tables.values() holds the map there
  private static Map<String, List<Integer>> byName(Object byName) {
    return (Map<String, List<Integer>>) byName;
  }

  private static Object reversed(Object array) {
    if (array == null) {
      return null;
    }
    int n = Array.getLength(array);
    Object copy = Array.newInstance(array.getClass().getComponentType(), n);
    for (int i = 0; i < n; i++) {
      Array.set(copy, i, Array.get(array, n - 1 - i));
    }
    return copy;
  }

  /** Extremes, nulls inside object arrays and lists, empty arrays and lists, and none at all. */
  static List<Tables> samples() {
    return List.of(
        new Tables(new int[] {Integer.MIN_VALUE, -1, 0, Integer.MAX_VALUE}, new long[] {Long.MIN_VALUE, 42},
            new boolean[] {true, false, false}, new short[] {Short.MIN_VALUE, 300}, new char[] {'a', '\u00e9', '\u4e2d'},
            new float[] {0.5f, -1.25f, Float.MAX_VALUE}, new double[] {0.1, -1e300}, new Integer[] {7, null, -7},
            new String[] {"x", null, ""}, new byte[][] {{1, 2}, {}, null}, new Person[] {new Person("Ada", 36), null},
            new Mood[] {Mood.CROSS, Mood.CALM, null}, new BigDecimal[] {new BigDecimal("-1.50"), null},
            new Date[] {new Date(-1), new Date(1_733_000_000_123L)}, new int[][] {{1, 2}, {}, null, {-3}},
            new ArrayList<>(List.of(new ArrayList<>(List.of("a", "b")), new ArrayList<>(), Arrays.asList("c", null))),
            new LinkedHashMap<>(Map.of("k", new ArrayList<>(List.of(1, -1))))),
        new Tables(new int[0], new long[0], new boolean[0], new short[0], new char[0], new float[0], new double[0],
            new Integer[0], new String[0], new byte[0][], new Person[0], new Mood[0], new BigDecimal[0], new Date[0],
            new int[0][], new ArrayList<>(), new LinkedHashMap<>()),
        new Tables(null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null,
            null));
  }
}
