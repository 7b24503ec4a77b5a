package com.example.sofa.hessian;

import java.io.Serializable;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.Date;
import java.util.List;
import java.util.Map;

/**
 * A hessian2 bean of arrays (of every primitive but byte, of boxes, strings, byte arrays, beans, enums, dates) and of
 * collections inside collections.
 */
@SuppressWarnings("JavaUtilDate") // a DTO's Date is what is tested
public class Tables implements Serializable {
  private static final long serialVersionUID = 1L;

  private int[] ints;
  private long[] longs;
  private boolean[] flags;
  private short[] shorts;
  private char[] letters;
  private float[] ratios;
  private double[] doubles;
  private Integer[] boxed;
  private String[] names;
  private byte[][] blobs;
  private Person[] people;
  private Mood[] moods;
  private BigDecimal[] amounts;
  private Date[] dates;
  private int[][] grid;
  private List<List<String>> rows;
  private Map<String, List<Integer>> byName;

  public Tables() {}

  public Tables(int[] ints, long[] longs, boolean[] flags, short[] shorts, char[] letters, float[] ratios,
      double[] doubles, Integer[] boxed, String[] names, byte[][] blobs, Person[] people, Mood[] moods,
      BigDecimal[] amounts, Date[] dates, int[][] grid, List<List<String>> rows, Map<String, List<Integer>> byName) {
    this.ints = ints;
    this.longs = longs;
    this.flags = flags;
    this.shorts = shorts;
    this.letters = letters;
    this.ratios = ratios;
    this.doubles = doubles;
    this.boxed = boxed;
    this.names = names;
    this.blobs = blobs;
    this.people = people;
    this.moods = moods;
    this.amounts = amounts;
    this.dates = dates;
    this.grid = grid;
    this.rows = rows;
    this.byName = byName;
  }

  /** Every value, in the constructor's order, for the provider to turn around. */
  public Object[] values() {
    return new Object[] {ints, longs, flags, shorts, letters, ratios, doubles, boxed, names, blobs, people, moods,
        amounts, dates, grid, rows, byName};
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Tables t && Arrays.deepEquals(values(), t.values());
  }

  @Override
  public int hashCode() {
    return Arrays.deepHashCode(values());
  }

  @Override
  public String toString() {
    return "Tables" + Arrays.deepToString(values());
  }
}
