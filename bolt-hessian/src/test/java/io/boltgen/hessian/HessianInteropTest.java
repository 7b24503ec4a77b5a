package io.boltgen.hessian;

import static io.boltgen.hessian.HessianFixtures.POINT;
import static io.boltgen.hessian.HessianFixtures.ours;
import static io.boltgen.hessian.HessianFixtures.sofaReads;
import static io.boltgen.hessian.HessianFixtures.sofaReadsObject;
import static io.boltgen.hessian.HessianFixtures.sofaWrites;
import static io.boltgen.hessian.HessianFixtures.sofaWritesObject;
import static io.boltgen.hessian.HessianFixtures.weRead;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.caucho.hessian.io.Hessian2Input;
import io.boltgen.hessian.HessianFixtures.Point;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Our Hessian against sofa-hessian 3.5.x's Hessian2Output and Hessian2Input (what SOFARPC uses): for many
 * seeded random values, we write the bytes it writes, it reads what we write, and we read what it writes.
 */
class HessianInteropTest {

  private static final int CASES = 300;

  @Test
  void intsAcrossEveryCompactRange() {
    Random random = new Random(1);
    for (int i = 0; i < CASES * 10; i++) {
      int v = HessianFixtures.randomInt(random);
      byte[] sofa = sofaWrites(out -> out.writeInt(v));
      assertThat(ours(out -> out.writeInt(v))).as("int %d", v).isEqualTo(sofa);
      assertThat(weRead(sofa, HessianReader::readInt)).isEqualTo(v);
      assertThat(weRead(sofa, HessianReader::readLong)).isEqualTo(v);
      assertThat(weRead(sofa, HessianReader::readValue)).isEqualTo(v);
      assertThat(sofaReads(sofa, Hessian2Input::readInt)).isEqualTo(v);
    }
  }

  @Test
  void longsAcrossEveryCompactRange() {
    Random random = new Random(2);
    for (int i = 0; i < CASES * 10; i++) {
      long v = HessianFixtures.randomLong(random);
      byte[] sofa = sofaWrites(out -> out.writeLong(v));
      assertThat(ours(out -> out.writeLong(v))).as("long %d", v).isEqualTo(sofa);
      assertThat(weRead(sofa, HessianReader::readLong)).isEqualTo(v);
      assertThat(weRead(sofa, HessianReader::readValue)).isEqualTo(v);
      assertThat(weRead(sofa, HessianReader::readInt)).as("like sofa-hessian's readInt")
          .isEqualTo(sofaReads(sofa, Hessian2Input::readInt));
    }
  }

  @Test
  void doublesIncludingEdgeValues() {
    Random random = new Random(3);
    for (int i = 0; i < CASES * 10; i++) {
      double v = HessianFixtures.randomDouble(random);
      byte[] sofa = sofaWrites(out -> out.writeDouble(v));
      assertThat(ours(out -> out.writeDouble(v))).as("double %s", v).isEqualTo(sofa);
      assertThat(weRead(sofa, HessianReader::readDouble)).isEqualTo(sofaReads(sofa, Hessian2Input::readDouble));
      assertThat(weRead(sofa, HessianReader::readValue)).isEqualTo(sofaReadsObject(sofa));
      assertThat(weRead(sofa, HessianReader::readInt)).isEqualTo(sofaReads(sofa, Hessian2Input::readInt));
    }
    assertThat(weRead(ours(out -> out.writeDouble(0.1)), HessianReader::readDouble)).isEqualTo(0.1);
  }

  @Test
  void stringsAsciiNonAsciiSurrogatesAndLongOnes() {
    Random random = new Random(4);
    for (int i = 0; i < CASES; i++) {
      String v = HessianFixtures.randomString(random);
      byte[] sofa = sofaWrites(out -> out.writeString(v));
      assertThat(ours(out -> out.writeString(v))).as("a string of %d chars", v.length()).isEqualTo(sofa);
      assertThat(weRead(sofa, HessianReader::readString)).isEqualTo(v);
      assertThat(weRead(sofa, HessianReader::readValue)).isEqualTo(v);
      assertThat(sofaReadsObject(sofa)).isEqualTo(v);
    }
    String pairOnTheChunkEdge = "a".repeat(0x7fff) + "\ud83d\ude00" + "b".repeat(40);
    byte[] sofa = sofaWrites(out -> out.writeString(pairOnTheChunkEdge));
    assertThat(ours(out -> out.writeString(pairOnTheChunkEdge))).isEqualTo(sofa);
    assertThat(weRead(sofa, HessianReader::readString)).isEqualTo(pairOnTheChunkEdge);
    assertThat(weRead(ours(out -> out.writeString(null)), HessianReader::readString)).isNull();
  }

  @Test
  void bytesShortAndOverAChunk() {
    Random random = new Random(5);
    for (int i = 0; i < CASES; i++) {
      byte[] v = HessianFixtures.randomBytes(random);
      byte[] sofa = sofaWrites(out -> out.writeBytes(v));
      assertThat(ours(out -> out.writeBytes(v))).as("%d bytes", v.length).isEqualTo(sofa);
      assertThat(weRead(sofa, HessianReader::readBytes)).isEqualTo(v);
      assertThat((byte[]) sofaReadsObject(sofa)).isEqualTo(v);
    }
    assertThat(weRead(ours(out -> out.writeBytes(null)), HessianReader::readBytes)).isNull();
  }

  @Test
  void booleansAndNull() {
    for (boolean v : new boolean[] {true, false}) {
      byte[] sofa = sofaWrites(out -> out.writeBoolean(v));
      assertThat(ours(out -> out.writeBoolean(v))).isEqualTo(sofa);
      assertThat(weRead(sofa, HessianReader::readBoolean)).isEqualTo(v);
    }
    byte[] sofa = sofaWrites(out -> out.writeNull());
    assertThat(ours(HessianWriter::writeNull)).isEqualTo(sofa);
    assertThat(weRead(sofa, HessianReader::readNull)).isTrue();
    assertThat(weRead(sofa, HessianReader::readValue)).isNull();
  }

  @Test
  void listsAndMaps() {
    Random random = new Random(6);
    for (int i = 0; i < CASES; i++) {
      List<Long> list = new ArrayList<>();
      Map<String, Integer> map = new HashMap<>();
      for (int n = random.nextInt(i % 10 == 0 ? 400 : 10); n > 0; n--) {
        list.add(HessianFixtures.randomLong(random));
        map.put(HessianFixtures.randomString(random).substring(0, 0) + random.nextInt(), HessianFixtures.randomInt(random));
      }
      byte[] sofaList = sofaWritesObject(list);
      assertThat(ours(out -> out.writeList("", list, HessianWriter::writeLong))).isEqualTo(sofaList);
      assertThat(HessianFixtures.<List<Long>>weRead(sofaList, in -> in.readList(HessianReader::readLong))).isEqualTo(list);
      assertThat(weRead(sofaList, HessianReader::readValue)).isEqualTo(list);
      assertThat(sofaReadsObject(ours(out -> out.writeList("", list, HessianWriter::writeLong)))).isEqualTo(list);

      byte[] sofaMap = sofaWritesObject(map);
      assertThat(ours(out -> out.writeMap("", map, HessianWriter::writeString, HessianWriter::writeInt)))
          .isEqualTo(sofaMap);
      Map<String, Integer> read = weRead(sofaMap, in -> in.readMap(HessianReader::readString, HessianReader::readInt));
      assertThat(read).isInstanceOf(LinkedHashMap.class).isEqualTo(map);
      assertThat(new ArrayList<>(read.keySet())).isEqualTo(new ArrayList<>(map.keySet()));
      assertThat(sofaReadsObject(ours(out -> out.writeMap("", map, HessianWriter::writeString, HessianWriter::writeInt))))
          .isEqualTo(map);
    }
  }

  @Test
  void typedListsWriteTheirTypeOnceThenTheCompactForm() {
    List<String[]> arrays = List.of(new String[] {"a", "b"}, new String[] {}, new String[] {"\u4e2d", null});
    byte[] sofa = sofaWritesObject(new ArrayList<>(arrays));
    HessianWriter.ValueWriter<String[]> array = (out, a) -> out.writeList("[string", Arrays.asList(a), HessianWriter::writeString);
    assertThat(ours(out -> out.writeList("", arrays, array))).isEqualTo(sofa);
    List<List<String>> read = weRead(sofa, in -> in.readList(e -> e.readList(HessianReader::readString)));
    assertThat(read).containsExactly(List.of("a", "b"), List.of(), Arrays.asList("\u4e2d", null));
    assertThat((List<?>) sofaReadsObject(ours(out -> out.writeList("", arrays, array))))
        .satisfiesExactly(
            a -> assertThat((String[]) a).containsExactly("a", "b"),
            a -> assertThat((String[]) a).isEmpty(),
            a -> assertThat((String[]) a).containsExactly("\u4e2d", null));
  }

  @Test
  void nestedObjects() {
    Random random = new Random(7);
    for (int i = 0; i < CASES; i++) {
      Point point = HessianFixtures.randomPoint(random, 4);
      byte[] sofa = sofaWritesObject(point);
      assertThat(ours(out -> out.writeObject(POINT, point))).as("%s", point).isEqualTo(sofa);
      assertThat(HessianFixtures.<Point>weRead(sofa, in -> in.readObject(POINT))).isEqualTo(point);
      assertThat(sofaReadsObject(ours(out -> out.writeObject(POINT, point)))).isEqualTo(point);
      assertThat(weRead(sofa, HessianReader::readValue)).isInstanceOf(HessianReader.Instance.class);
    }
    assertThat(HessianFixtures.<Point>weRead(ours(out -> out.writeObject(POINT, null)), in -> in.readObject(POINT))).isNull();
  }

  @Test
  void fieldsInAnotherOrderOrUnknownAreMatchedByName() {
    Point point = new Point(3, 4L, 5.5, "n", List.of("t"), new Point(1, 2, 3, null, null, null));
    HessianType<Point> reordered = new HessianType<>() {
      @Override
      public HessianClass hessianClass() {
        return HessianClass.of(Point.class.getName(), "extra", "child", "name", "x", "tags", "score", "id");
      }

      @Override
      public void writeFields(HessianWriter out, Point p) {
        out.writeMap("", Map.of("k", 1), HessianWriter::writeString, HessianWriter::writeInt);
        out.writeObject(this, p.child);
        out.writeString(p.name);
        out.writeInt(p.x);
        out.writeList("", p.tags, HessianWriter::writeString);
        out.writeDouble(p.score);
        out.writeLong(p.id);
      }

      @Override
      public Point readFields(HessianReader in, HessianClass sent) {
        throw new UnsupportedOperationException();
      }
    };
    Point read = weRead(ours(out -> out.writeObject(reordered, point)), in -> in.readObject(POINT));
    assertThat(read).isEqualTo(point);
  }

  @Test
  void aClassOtherThanTheOneExpectedFailsNamingBothThePeersApartFromTheMessage() {
    byte[] bytes = sofaWritesObject(new IllegalStateException("x"));
    assertThatThrownBy(() -> weRead(bytes, in -> in.readObject(POINT)))
        .isInstanceOfSatisfying(HessianException.class, e -> {
          assertThat(e).hasMessageContaining(Point.class.getName()).hasMessageNotContaining("IllegalStateException");
          assertThat(e.peerText()).isEqualTo("java.lang.IllegalStateException");
        });
  }

  @Test
  void theSameObjectTwiceIsReadBackFromItsReference() {
    Point shared = new Point(1, 2, 3, "shared", new ArrayList<>(List.of("a")), null);
    List<Point> twice = new ArrayList<>(List.of(shared, shared));
    byte[] sofa = sofaWritesObject(twice);
    List<Point> read = weRead(sofa, in -> in.readList(e -> e.readObject(POINT)));
    assertThat(read).containsExactly(shared, shared);
    assertThat(read.get(1)).isSameAs(read.get(0));
    List<Object> plain = weRead(sofa, in -> in.readList(HessianReader::readValue));
    assertThat(plain.get(1)).isSameAs(plain.get(0));
  }

  @Test
  void aReferenceToAnObjectStillBeingReadFails() {
    byte[] listOfItself = {'V', 0x6e, 1, 0x4a, 0, 'z'};
    assertThatThrownBy(() -> weRead(listOfItself, HessianReader::readValue))
        .isInstanceOf(HessianException.class).hasMessageContaining("cycle");
  }

  @Test
  void throwablesSofaHessianWritesAreReadAsClassAndMessage() {
    Throwable[] thrown = {new IllegalStateException("x"), new IllegalArgumentException("outer", new RuntimeException("in")),
        new UnsupportedOperationException(), new RuntimeException("\u4e2d\ud83d\ude00".repeat(20_000))};
    for (Throwable t : thrown) {
      byte[] sofa = sofaWritesObject(t);
      assertThat(weRead(sofa, HessianReader::readThrowable))
          .isEqualTo(new HessianReader.RemoteThrowable(t.getClass().getName(), t.getMessage()));
    }
    assertThat(weRead(new byte[] {'N'}, HessianReader::readThrowable)).isNull();
  }

  @Test
  void readFieldsReadsTheFieldsAskedForAndSkipsTheRestOfAnyObject() {
    byte[] sofa = sofaWritesObject(new Point(7, 8, 0.5, "p", new ArrayList<>(List.of("a", "b")), new Point()));
    List<String> seen = new ArrayList<>();
    String[] name = new String[1];
    String className = weRead(sofa, in -> in.readFields((r, sentClass, field) -> {
      seen.add(field);
      if (field.equals("name")) {
        name[0] = r.readString();
        return true;
      }
      return false;
    }));
    assertThat(className).isEqualTo(Point.class.getName());
    assertThat(seen).containsExactly("x", "id", "score", "name", "tags", "child");
    assertThat(name[0]).isEqualTo("p");
    String none = weRead(new byte[] {'N'}, in -> in.readFields((r, sentClass, field) -> false));
    assertThat(none).isNull();
    assertThatThrownBy(() -> weRead(sofa, in -> in.readFields((r, sentClass, field) -> true)))
        .isInstanceOf(HessianException.class).hasMessageContaining("read nothing");
    assertThatThrownBy(() -> weRead(ours(out -> out.writeString("not an object")),
        in -> in.readFields((r, sentClass, field) -> false))).isInstanceOf(HessianException.class);
  }

  @Test
  void throwableFieldsKeepWhatTheyReadWhenTheRestIsMalformed() {
    byte[] whole = sofaWritesObject(new IllegalStateException("outer", new IllegalArgumentException("inner")));
    ThrowableFields fields = new ThrowableFields();
    assertThatThrownBy(() -> weRead(Arrays.copyOf(whole, whole.length - 3), in -> in.readFields(fields)))
        .isInstanceOf(HessianException.class);
    assertThat(fields.className()).isEqualTo("java.lang.IllegalStateException");
    assertThat(fields.message()).isEqualTo("outer");
  }

  @Test
  void throwablesWeWriteAreReadBySofaHessian() {
    for (String message : new String[] {"x", "", null, "\u00e9".repeat(40_000)}) {
      byte[] ours = ours(out -> out.writeThrowable("java.lang.IllegalStateException", message));
      Object read = sofaReadsObject(ours);
      assertThat(read).isInstanceOf(IllegalStateException.class);
      assertThat(((IllegalStateException) read).getMessage()).isEqualTo(message);
      assertThat(weRead(ours, HessianReader::readThrowable))
          .isEqualTo(new HessianReader.RemoteThrowable("java.lang.IllegalStateException", message));
    }
  }
}
