package io.boltgen.sofarpc.it.hessian;

import io.boltgen.annotation.SofaRpcClass;
import java.util.Date;
import java.util.List;
import java.util.Map;

/** The provider's com.example.sofa.hessian.Tables: arrays of every kind, and collections inside collections. */
@SofaRpcClass("com.example.sofa.hessian.Tables")
@SuppressWarnings({"ArrayRecordComponent", "JavaUtilDate"}) // compared field by field; Date is the peer's type
public record Tables(int[] ints, long[] longs, boolean[] flags, short[] shorts, char[] letters, float[] ratios,
    double[] doubles, Integer[] boxed, String[] names, byte[][] blobs, Person[] people, Mood[] moods,
    java.math.BigDecimal[] amounts, Date[] dates, int[][] grid, List<List<String>> rows,
    Map<String, List<Integer>> byName) {}
