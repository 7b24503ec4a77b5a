package io.boltgen.sofarpc;

import static io.boltgen.hessian.HessianFixtures.ours;
import static io.boltgen.hessian.HessianFixtures.sofaReadsObject;
import static io.boltgen.hessian.HessianFixtures.sofaWritesObject;
import static io.boltgen.hessian.HessianFixtures.weRead;
import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.hessian.HessianReader;
import io.boltgen.hessian.HessianWriter;
import io.boltgen.runtime.codec.ArrayValues;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Arrays, written and read with the calls generated code makes for an array field ({@code writeList} with the
 * array's Hessian type over {@link ArrayValues#list}, {@code readList} into {@link ArrayValues}), against
 * sofa-hessian: byte for byte what it writes for each kind of array, and each side reads the other's. Seeded.
 */
@SuppressWarnings("JavaUtilDate") // SOFARPC's Date
class HessianArraysTest {

  private static final long SEED = 0xA77A4L;

  /** Ours byte for byte as sofa-hessian's; sofa-hessian reads ours equal, and we read its equal. */
  private static <A> void same(A array, Consumer<HessianWriter> write, Function<HessianReader, A> read) {
    byte[] theirs = sofaWritesObject(array);
    assertThat(ours(write)).as("%s", array.getClass().getSimpleName()).isEqualTo(theirs);
    // a char[] is an untyped string, which reads as a String where no field says char[]
    assertThat(sofaReadsObject(theirs)).isEqualTo(array instanceof char[] chars ? new String(chars) : array);
    assertThat(weRead(theirs, read)).isEqualTo(array);
  }

  @Test
  void primitiveArraysAreSofaHessiansTypedLists() {
    Random random = new Random(SEED);
    for (int round = 0; round < 50; round++) {
      int n = round == 0 ? 0 : 1 + random.nextInt(round < 10 ? 3 : 300); // 300: past the short length form
      int[] ints = random.ints(n).toArray();
      long[] longs = random.longs(n).toArray();
      double[] doubles = random.doubles(n).map(d -> Math.round(d * 1e6) / 64.0).toArray();
      boolean[] flags = new boolean[n];
      short[] shorts = new short[n];
      float[] floats = new float[n];
      char[] chars = new char[n];
      for (int i = 0; i < n; i++) {
        flags[i] = random.nextBoolean();
        shorts[i] = (short) random.nextInt();
        floats[i] = random.nextInt(10_000) / 16f;
        chars[i] = (char) ('a' + random.nextInt(26));
      }
      same(ints, o -> o.writeList("[int", ArrayValues.list(ints), HessianWriter::writeInt),
          in -> ArrayValues.ints(in.readList(HessianReader::readInt)));
      same(longs, o -> o.writeList("[long", ArrayValues.list(longs), HessianWriter::writeLong),
          in -> ArrayValues.longs(in.readList(HessianReader::readLong)));
      same(doubles, o -> o.writeList("[double", ArrayValues.list(doubles), HessianWriter::writeDouble),
          in -> ArrayValues.doubles(in.readList(HessianReader::readDouble)));
      same(flags, o -> o.writeList("[boolean", ArrayValues.list(flags), HessianWriter::writeBoolean),
          in -> ArrayValues.booleans(in.readList(HessianReader::readBoolean)));
      same(shorts, o -> o.writeList("[short", ArrayValues.list(shorts), (w, e) -> w.writeInt(e)),
          in -> ArrayValues.shorts(in.readList(r -> SofaRpcHessian.toShort(r.readInt(), "shorts' element"))));
      same(floats, o -> o.writeList("[float", ArrayValues.list(floats), (w, e) -> w.writeDouble(e)),
          in -> ArrayValues.floats(in.readList(r -> SofaRpcHessian.toFloat(r.readDouble(), "floats' element"))));
      same(chars, o -> SofaRpcHessian.writeChars(o, chars), SofaRpcHessian::readChars); // a string
    }
  }

  @Test
  void objectArraysAreTypedByTheirComponentAsSofaHessianTypesThem() {
    Integer[] boxed = {1, null, -300_000};
    same(boxed, o -> o.writeList("[java.lang.Integer", ArrayValues.list(boxed), SofaRpcHessian::writeBox),
        in -> ArrayValues.array(in.readList(SofaRpcHessian::readIntBox), Integer[]::new));
    String[] names = {"a", null, "Grüße", ""};
    same(names, o -> o.writeList("[string", ArrayValues.list(names), HessianWriter::writeString),
        in -> ArrayValues.array(in.readList(HessianReader::readString), String[]::new));
    byte[][] blobs = {{1, 2, 3}, {}, null};
    byte[] theirs = sofaWritesObject(blobs);
    assertThat(ours(o -> o.writeList("[[byte", ArrayValues.list(blobs), HessianWriter::writeBytes))).isEqualTo(theirs);
    assertThat((byte[][]) sofaReadsObject(theirs)).isDeepEqualTo(blobs);
    byte[][] read = weRead(theirs, in -> ArrayValues.array(in.readList(HessianReader::readBytes), byte[][]::new));
    assertThat(read).isDeepEqualTo(blobs);
    Date[] dates = {new Date(0), new Date(1_700_000_000_123L), null};
    same(dates, o -> o.writeList("[date", ArrayValues.list(dates), SofaRpcJdkTypes::writeDate),
        in -> ArrayValues.array(in.readList(SofaRpcJdkTypes::readDate), Date[]::new));
    BigDecimal[] amounts = {new BigDecimal("-1.50"), BigDecimal.ZERO};
    same(amounts, o -> o.writeList("[java.math.BigDecimal", ArrayValues.list(amounts),
            (w, e) -> w.writeObject(SofaRpcJdkTypes.BIG_DECIMAL, e)),
        in -> ArrayValues.array(in.readList(r -> r.readObject(SofaRpcJdkTypes.BIG_DECIMAL)), BigDecimal[]::new));
  }

  @Test
  void aNullArrayIsNullAndAListOfArraysSharesTheArraysType() {
    same(new int[0], o -> o.writeList("[int", ArrayValues.list(new int[0]), HessianWriter::writeInt),
        in -> ArrayValues.ints(in.readList(HessianReader::readInt)));
    assertThat(ours(o -> o.writeList("[int", ArrayValues.list((int[]) null), HessianWriter::writeInt)))
        .isEqualTo(sofaWritesObject(null));
    assertThat(ours(o -> SofaRpcHessian.writeChars(o, null))).isEqualTo(sofaWritesObject(null));
    // the second array of a type refers to the type written first, as sofa-hessian does
    List<int[]> two = new ArrayList<>(List.of(new int[] {1}, new int[] {2, 3})); // an untyped list
    byte[] theirs = sofaWritesObject(two);
    assertThat(ours(o -> o.writeList("", two, (w, a) -> w.writeList("[int", ArrayValues.list(a),
        HessianWriter::writeInt)))).isEqualTo(theirs);
    List<int[]> read = weRead(theirs, in -> in.readList(r -> ArrayValues.ints(r.readList(HessianReader::readInt))));
    assertThat(read).containsExactly(new int[] {1}, new int[] {2, 3});
  }

  @Test
  void collectionsInsideCollectionsAreWrittenAsSofaHessianWritesThem() {
    int[][] grid = {{1, 2}, {}, null, {3}};
    byte[] theirs = sofaWritesObject(grid);
    assertThat(ours(o -> o.writeList("[[int", ArrayValues.list(grid), (w, row) -> w.writeList("[int",
        ArrayValues.list(row), HessianWriter::writeInt)))).isEqualTo(theirs);
    assertThat((int[][]) sofaReadsObject(theirs)).isDeepEqualTo(grid);
    int[][] read = weRead(theirs, in -> ArrayValues.array(in.readList(
        r -> ArrayValues.ints(r.readList(HessianReader::readInt))), int[][]::new));
    assertThat(read).isDeepEqualTo(grid);

    List<List<String>> rows = new ArrayList<>(List.of(new ArrayList<>(List.of("a", "b")), new ArrayList<>()));
    byte[] listsOfLists = sofaWritesObject(rows);
    assertThat(ours(o -> o.writeList("", rows, (w, row) -> w.writeList("", row, HessianWriter::writeString))))
        .isEqualTo(listsOfLists);
    assertThat(sofaReadsObject(listsOfLists)).isEqualTo(rows);
    List<List<String>> readRows = weRead(listsOfLists, in -> in.readList(r -> r.readList(HessianReader::readString)));
    assertThat(readRows).isEqualTo(rows);
  }
}
