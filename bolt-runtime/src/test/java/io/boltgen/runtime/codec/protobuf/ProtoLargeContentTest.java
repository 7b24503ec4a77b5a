package io.boltgen.runtime.codec.protobuf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.Timestamp;
import io.boltgen.runtime.codec.protobuf.ProtoWireTest.Sample;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Content larger than the decoder's window (direct and composite buffers are read through it, heap
 * buffers from their own array) against protobuf-java: whole messages of the window's size ± a few bytes, 1 MiB and
 * 5 MiB; every kind of field starting 0 to 10 bytes before a window edge; truncated and hostile input at the
 * edges; and a large {@code bytes} value copied once.
 */
class ProtoLargeContentTest {

  private static final int WINDOW = ProtoDecoder.MAX_RETAINED_SCRATCH;
  private static final int FIRST_WINDOW = ProtoInput.FIRST_WINDOW;

  private static Sample sample(int a, long b, String s, byte[] d, double x, float y, List<Sample> children, int c,
      Timestamp t) {
    return new Sample(a, b, s, d, x, y, false, children, c, t);
  }

  private static Sample parent(List<Sample> children) {
    return sample(0, 0, null, null, 0, 0, children, 0, null);
  }

  private static byte[] random(Random random, int n) {
    byte[] bytes = new byte[n];
    random.nextBytes(bytes);
    return bytes;
  }

  /** A string of about {@code utf8Bytes} bytes, mostly ASCII with 2-, 3- and 4-byte characters mixed in. */
  private static String text(Random random, int utf8Bytes) {
    StringBuilder s = new StringBuilder();
    int n = 0;
    while (n < utf8Bytes) {
      int kind = random.nextInt(10);
      int cp = kind < 7 ? 'a' + random.nextInt(26) : kind == 7 ? 0xe9 : kind == 8 ? 0x65e5 : 0x1F600;
      s.appendCodePoint(cp);
      n += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    }
    return s.toString();
  }

  /**
   * The same content as a frame decoder might hand it over: a direct buffer at an odd index, a heap buffer at
   * an array offset, a composite of 1–8 KiB direct and heap components, and a slice of such a composite at
   * an odd index.
   */
  static List<ByteBuf> sources(byte[] bytes, Random random) {
    ByteBuf direct = PooledByteBufAllocator.DEFAULT.directBuffer(bytes.length + 3).writeZero(3).writeBytes(bytes).skipBytes(3);
    ByteBuf heap = PooledByteBufAllocator.DEFAULT.heapBuffer(bytes.length + 7).writeZero(7).writeBytes(bytes).skipBytes(7);
    CompositeByteBuf composite = components(bytes, random);
    byte[] framed = new byte[bytes.length + 8];
    System.arraycopy(bytes, 0, framed, 5, bytes.length);
    CompositeByteBuf frame = components(framed, random);
    ByteBuf slice = frame.retainedSlice(5, bytes.length);
    frame.release();
    return List.of(direct, heap, composite, slice);
  }

  private static CompositeByteBuf components(byte[] bytes, Random random) {
    CompositeByteBuf composite = ByteBufAllocator.DEFAULT.compositeBuffer(Integer.MAX_VALUE);
    for (int i = 0; i < bytes.length; ) {
      int n = Math.min(bytes.length - i, 1024 + random.nextInt(7 * 1024 + 1));
      ByteBuf part = random.nextBoolean() ? PooledByteBufAllocator.DEFAULT.directBuffer(n)
          : PooledByteBufAllocator.DEFAULT.heapBuffer(n);
      composite.addComponent(true, part.writeBytes(bytes, i, n));
      i += n;
    }
    return composite;
  }

  private interface Check {
    void on(ByteBuf in) throws IOException;
  }

  /** Runs {@code check} on each of {@link #sources}, releasing them all whatever happens. */
  private static void onEverySource(byte[] bytes, Random random, Check check) throws IOException {
    List<ByteBuf> sources = sources(bytes, random);
    try {
      for (ByteBuf in : sources) {
        check.on(in);
      }
    } finally {
      sources.forEach(ByteBuf::release);
    }
  }

  /** {@link #onEverySource} without the heap buffer, which is read from its own array (no window). */
  private static void onEveryDirectSource(byte[] bytes, Check check) {
    try {
      onEverySource(bytes, new Random(bytes.length), in -> {
        if (!in.hasArray()) {
          check.on(in);
        }
      });
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  /** Decodes {@code bytes} from every kind of source and checks that protobuf-java writes it back the same. */
  private static void decodesBack(byte[] bytes, byte[] expected, Random random, String what) throws IOException {
    onEverySource(bytes, random, in -> {
      Sample back = ProtoWireTest.SAMPLE.read(in);
      assertThat(in.readableBytes()).as(what).isZero();
      assertThat(ProtoWireTest.reference(back)).as("%s from %s", what, in.getClass().getSimpleName()).isEqualTo(expected);
    });
  }

  // ------------------------------------------------------------------ whole messages

  private static Sample large(Random random, int bytesField, int stringField, int children) {
    List<Sample> list = new ArrayList<>();
    for (int i = 0; i < children; i++) {
      // mostly small children, now and then one larger than the window or nested two deep
      int size = i % 50 == 7 ? WINDOW + random.nextInt(3000) : random.nextInt(300);
      List<Sample> grandchildren = i % 10 == 3
          ? List.of(sample(i, -i, text(random, 40), random(random, 30), 0, 0, List.of(), 0, null)) : List.of();
      list.add(sample(-i, (long) i << 40, i % 2 == 0 ? text(random, size) : null, i % 2 == 1 ? random(random, size) : null,
          i * 0.5, -i, grandchildren, i, i % 7 == 0 ? Timestamp.newBuilder().setSeconds(i).setNanos(i).build() : null));
    }
    return sample(-42, Long.MIN_VALUE, stringField < 0 ? null : text(random, stringField),
        bytesField < 0 ? null : random(random, bytesField), Math.E, 0.1f, list, -1,
        Timestamp.newBuilder().setSeconds(1_700_000_000L).setNanos(999).build());
  }

  @Test
  void messagesOfTheWindowsSizeAndAFewBytesMoreOrLessDecodeLikeProtobufJava() throws IOException {
    Random random = new Random(64);
    for (int extra = -4; extra <= 4; extra++) {
      // a bytes field, or a string, that makes the whole message exactly WINDOW + extra bytes
      for (boolean string : new boolean[] {false, true}) {
        Sample v = sizedTo(WINDOW + extra, string, random);
        byte[] bytes = ProtoWireTest.reference(v);
        assertThat(bytes).hasSize(WINDOW + extra);
        decodesBack(bytes, bytes, random, "content of " + bytes.length + " bytes");
      }
    }
  }

  private static Sample sizedTo(int target, boolean string, Random random) throws IOException {
    List<Sample> children = List.of(sample(1, 2, "child", new byte[] {3}, 0, 0, List.of(), 0, null));
    int n = target - 100;
    while (true) {
      Sample v = string ? sample(7, 0, "x".repeat(n), null, 1.5, 0, children, 0, null)
          : sample(7, 0, null, random(random, n), 1.5, 0, children, 0, null);
      int size = ProtoWireTest.reference(v).length;
      if (size == target) {
        return v;
      }
      n += target - size;
    }
  }

  @Test
  void messagesOfOneAndFiveMebibytesDecodeLikeProtobufJava() throws IOException {
    Random random = new Random(1024);
    for (Sample v : List.of(
        large(random, 1 << 20, 1000, 40), // one large bytes field
        large(random, 100, 1 << 20, 40), // one large string
        large(random, -1, -1, 600), // many small and some large children, about 1 MiB
        large(random, 3 << 20, (1 << 20) + 17, 1000))) { // about 5 MiB
      byte[] bytes = ProtoWireTest.reference(v);
      decodesBack(bytes, bytes, random, "content of " + bytes.length + " bytes");
      small(); // the per-thread array keeps working for small content after large content
    }
  }

  private static void small() throws IOException {
    byte[] bytes = ProtoWireTest.reference(sample(1, 0, "small", new byte[] {1, 2}, 0, 0, List.of(), 0, null));
    decodesBack(bytes, bytes, new Random(1), "small content");
  }

  // ------------------------------------------------------------------ fields across a window edge

  /** A top-level field as written on the wire, where its own first field starts in it, and what it decodes to. */
  @SuppressWarnings("ArrayRecordComponent") // compared by its parts, never as a whole
  private record Item(String name, byte[] bytes, int fieldStart, Sample child) {}

  private static Item child(String name, Sample child) throws IOException {
    byte[] inner = ProtoWireTest.reference(child);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    CodedOutputStream coded = CodedOutputStream.newInstance(out);
    coded.writeTag(8, WireType.LENGTH_DELIMITED);
    coded.writeUInt32NoTag(inner.length);
    coded.flush();
    int fieldStart = out.size();
    out.write(inner);
    return new Item(name, out.toByteArray(), fieldStart, child);
  }

  private interface Writes {
    void to(CodedOutputStream out) throws IOException;
  }

  private static Item unknown(String name, Writes writes) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    CodedOutputStream coded = CodedOutputStream.newInstance(out);
    writes.to(coded);
    coded.flush();
    return new Item(name, out.toByteArray(), 0, null);
  }

  /** One of every kind of field, known (inside a child, read with the typed methods) or unknown (skipped). */
  private static List<Item> items() throws IOException {
    Random random = new Random(9);
    Timestamp t = Timestamp.newBuilder().setSeconds(-62_135_596_800L).setNanos(123_456_789).build();
    Sample nested = sample(7, 0, "deep", null, 0, 0,
        List.of(sample(0, -2, null, new byte[] {4, 5}, 0, 0, List.of(), 0, null)), 0, null);
    return List.of(
        child("int32 of ten bytes", sample(-1, 0, null, null, 0, 0, List.of(), 0, null)),
        child("int64 of ten bytes", sample(0, Long.MIN_VALUE, null, null, 0, 0, List.of(), 0, null)),
        child("int64 of nine bytes", sample(0, 1L << 62, null, null, 0, 0, List.of(), 0, null)),
        child("int64 of two bytes", sample(0, 300, null, null, 0, 0, List.of(), 0, null)),
        child("uint32 of five bytes", sample(0, 0, null, null, 0, 0, List.of(), -1, null)),
        child("double", sample(0, 0, null, null, Math.PI, 0, List.of(), 0, null)),
        child("float", sample(0, 0, null, null, 0, 1.25f, List.of(), 0, null)),
        child("short string", sample(0, 0, "é日x€", null, 0, 0, List.of(), 0, null)),
        child("string with a two-byte length", sample(0, 0, "ü".repeat(150) + "a", null, 0, 0, List.of(), 0, null)),
        child("short bytes", sample(0, 0, null, random(random, 20), 0, 0, List.of(), 0, null)),
        child("bytes with a two-byte length", sample(0, 0, null, random(random, 3000), 0, 0, List.of(), 0, null)),
        child("embedded protobuf-java message", sample(0, 0, null, null, 0, 0, List.of(), 0, t)),
        child("nested children", nested),
        child("all scalars", sample(-5, -6, "s", new byte[] {1}, -0.0, Float.MIN_VALUE, List.of(), 77, null)),
        unknown("varint with a five-byte tag", out -> out.writeInt64(536_870_911, -1)),
        unknown("fixed64 with a two-byte tag", out -> out.writeFixed64(16, -3)),
        unknown("fixed32 with a two-byte tag", out -> out.writeFixed32(2047, 5)),
        unknown("length-delimited", out -> out.writeByteArray(20_000, random(random, 50))),
        unknown("group", out -> {
          out.writeTag(100, WireType.START_GROUP);
          out.writeUInt64(1, Long.MAX_VALUE);
          out.writeTag(101, WireType.START_GROUP);
          out.writeString(2, "in a group");
          out.writeTag(101, WireType.END_GROUP);
          out.writeFixed32(3, 7);
          out.writeTag(100, WireType.END_GROUP);
        }));
  }

  /** Writes exactly {@code n} bytes (0 or at least 2) of unknown length-delimited fields, none over 1000 bytes. */
  private static void filler(ByteArrayOutputStream out, int n) {
    assertThat(n == 1 || n < 0).as("filler of %d bytes", n).isFalse();
    while (n > 0) {
      int c = Math.min(n, 1000);
      if (n - c == 1) {
        c -= 2;
      }
      if (c == 130) { // one byte too long for a one-byte length, one too short for a two-byte one
        c = 65;
      }
      out.write(122); // field 15, length-delimited
      if (c <= 129) {
        out.write(c - 2);
        out.write(new byte[c - 2], 0, c - 2);
      } else {
        out.write(((c - 3) & 0x7F) | 0x80);
        out.write((c - 3) >>> 7);
        out.write(new byte[c - 3], 0, c - 3);
      }
      n -= c;
    }
  }

  /**
   * Content with {@code item}'s first field placed {@code before} bytes before each of the first
   * {@code edges} window edges (the first window's {@code FIRST_WINDOW} bytes, then the window's size further
   * each), small fields in between; records where each copy of the item starts. The first copy crosses the
   * first window's edge; the window then slides to a read inside
   * it, so each later copy crosses the next edge at the point where that read begins.
   */
  private static byte[] straddling(Item item, int before, int edges, List<Sample> expected, List<Integer> starts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int edge = 1; edge <= edges; edge++) {
      int start = FIRST_WINDOW + (edge - 1) * WINDOW - before - item.fieldStart();
      filler(out, start - out.size());
      starts.add(out.size());
      out.write(item.bytes(), 0, item.bytes().length);
      if (item.child() != null) {
        expected.add(item.child());
      }
    }
    filler(out, 300);
    return out.toByteArray();
  }

  @Test
  void everyKindOfFieldDecodesAcrossEveryWindowEdge() throws IOException {
    Random random = new Random(11);
    for (Item item : items()) {
      // 0 to 10 bytes, and up to every byte of the item (a field that ends just at the edge, not only one across it)
      int last = Math.max(10, Math.min(item.bytes().length - item.fieldStart(), 48));
      for (int before = 0; before <= last; before++) {
        List<Sample> expected = new ArrayList<>();
        byte[] bytes = straddling(item, before, 3, expected, new ArrayList<>());
        decodesBack(bytes, ProtoWireTest.reference(parent(expected)), random,
            item.name() + " starting " + before + " bytes before the edges");
      }
    }
  }

  @Test
  void aGroupLongerThanTheWindowIsSkipped() throws IOException {
    Random random = new Random(12);
    Sample first = sample(1, 0, "first", null, 0, 0, List.of(), 0, null);
    Sample last = sample(2, 0, "last", null, 0, 0, List.of(), 0, null);
    ByteArrayOutputStream group = new ByteArrayOutputStream();
    CodedOutputStream out = CodedOutputStream.newInstance(group);
    out.writeTag(100, WireType.START_GROUP);
    while (out.getTotalBytesWritten() < 3 * WINDOW) { // fields of 1 to 22 bytes: some end just at an edge
      switch (random.nextInt(4)) {
        case 0 -> out.writeFixed32(1, random.nextInt());
        case 1 -> out.writeFixed64(2, random.nextLong());
        case 2 -> out.writeInt64(3, random.nextLong() >> random.nextInt(64));
        default -> out.writeByteArray(4, random(random, random.nextInt(20)));
      }
    }
    out.writeTag(100, WireType.END_GROUP);
    out.flush();
    for (int offset = 0; offset < 10; offset++) {
      ByteArrayOutputStream content = new ByteArrayOutputStream();
      filler(content, offset < 2 ? 0 : offset);
      Item before = child("first", first);
      content.write(before.bytes());
      content.write(group.toByteArray());
      content.write(child("last", last).bytes());
      decodesBack(content.toByteArray(), ProtoWireTest.reference(parent(List.of(first, last))), random,
          "a group at " + content.size());
    }
  }

  @Test
  void anEmbeddedValueLeftAtAWindowEdgeIsNotReadToItsEnd() {
    byte[] bytes = new byte[2 * WINDOW];
    // zero varints, then field 1, length-delimited: 2 * WINDOW - 8 bytes of packed fixed64 values to the end,
    // the first (WINDOW - 8) / 8 of them up to the window's size
    int length = 2 * WINDOW - 8;
    int lengthBytes = CodedOutputStream.computeUInt32SizeNoTag(length);
    int zeros = 8 - 1 - lengthBytes;
    bytes[zeros] = 10;
    for (int i = 0, v = length; i < lengthBytes; i++, v >>>= 7) {
      bytes[zeros + 1 + i] = (byte) (i == lengthBytes - 1 ? v : (v & 0x7F) | 0x80);
    }
    onEveryDirectSource(bytes, in -> {
      ProtoDecoder d = ProtoDecoder.of(in);
      for (int i = 0; i < zeros; i++) {
        assertThat(d.readVarint32()).isZero();
      }
      assertThat(d.readTag()).isEqualTo(10);
      int outer = d.enter();
      for (int i = 0; i < (WINDOW - 8) / 8; i++) {
        assertThat(d.readDouble()).isZero();
      }
      assertThat(d.position() - in.readerIndex()).isEqualTo(WINDOW);
      assertThat(d.hasRemaining()).isTrue();
      assertThatThrownBy(() -> d.exit(outer)).isInstanceOf(ProtoDecodeException.class).hasMessageContaining("not read");
    });
  }

  @Test
  void truncationsAtAndAcrossWindowEdgesFailWithADecodeException() throws IOException {
    Random random = new Random(13);
    for (Item item : items()) {
      for (int before : new int[] {1, 6, 9}) {
        List<Integer> starts = new ArrayList<>();
        byte[] bytes = straddling(item, before, 2, new ArrayList<>(), starts);
        List<Integer> cuts = new ArrayList<>();
        for (int start : starts) {
          int end = start + item.bytes().length;
          for (int cut = start - 2; cut <= Math.min(end + 2, start + 40); cut++) {
            cuts.add(cut);
          }
          cuts.addAll(List.of(end - 1, end, start + random.nextInt(item.bytes().length)));
        }
        onEverySource(bytes, random, whole -> {
          for (int cut : cuts) {
            int start = starts.get(cut < starts.get(1) - 2 ? 0 : 1);
            int end = start + item.bytes().length;
            boolean inside = cut > start && cut < end; // else the prefix ends on a field boundary or in a filler
            ByteBuf in = whole.retainedSlice(whole.readerIndex(), cut); // the content up to the cut
            try {
              ProtoWireTest.SAMPLE.read(in);
              assertThat(inside).as("%s cut after %d of its %d bytes", item.name(), cut - start, end - start).isFalse();
            } catch (ProtoDecodeException e) {
              assertThat(cut).as("%s cut at %d: %s", item.name(), cut, e.getMessage()).isNotIn(start, end);
            } finally {
              in.release();
            }
          }
        });
      }
    }
  }

  @Test
  void hostileLengthsVarintsAndTagsAtTheWindowEdgeFailCleanly() throws IOException {
    Random random = new Random(17);
    byte[][] hostile = {
        {26, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x07}, // a string of 2^31 - 1 bytes
        {34, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x0f}, // bytes of 2^32 - 1 bytes
        {26, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff,
            (byte) 0xff, (byte) 0xff, 0x01}, // a negative length
        {34, (byte) 0x80, (byte) 0x80, 0x10}, // bytes of 256 KiB: more than remain
        {66, (byte) 0x80, (byte) 0x80, 0x10}, // a child of 256 KiB
        {66, 4, 26, 10, 'a', 'b'}, // a child that ends inside its string
        {66, 3, 41, 1, 2, 3, 4, 5, 6, 7, 8}, // a child that ends inside its double
        {16, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80,
            (byte) 0x80, (byte) 0x80, (byte) 0x80, 1}, // an eleven-byte varint
        {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80,
            (byte) 0x80, (byte) 0x80, (byte) 0x80, 1}, // an eleven-byte tag
        {(byte) 0x80, 0}, // field number 0 in two bytes
        {15, 0}, // wire type 7
        {(byte) 0xa3, 6, 8, 1, (byte) 0xac, 6}, // group 100 closed as 101
    };
    for (byte[] field : hostile) {
      for (int before = 0; before <= 11; before++) {
        for (int edge : new int[] {FIRST_WINDOW, WINDOW}) {
          ByteArrayOutputStream out = new ByteArrayOutputStream();
          filler(out, edge - before);
          out.write(field, 0, field.length);
          filler(out, WINDOW + 2000); // more content after the field than the window holds around it
          String what = Arrays.toString(field) + " " + before + " bytes before " + edge;
          onEverySource(out.toByteArray(), random, in -> assertThatThrownBy(() -> ProtoWireTest.SAMPLE.read(in)).as(what)
              .isInstanceOf(ProtoDecodeException.class));
        }
      }
    }
    // a group that the content's end leaves open
    ByteArrayOutputStream open = new ByteArrayOutputStream();
    filler(open, FIRST_WINDOW - 3);
    open.write(new byte[] {(byte) 0xa3, 6}, 0, 2);
    filler(open, 70_000);
    onEverySource(open.toByteArray(), random, in -> assertThatThrownBy(() -> ProtoWireTest.SAMPLE.read(in))
        .isInstanceOf(ProtoDecodeException.class).hasMessageContaining("not closed"));
  }

  @Test
  void scalarsReadLikeProtobufJavaWhereverTheWindowSlides() throws IOException {
    Random random = new Random(5);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    CodedOutputStream out = CodedOutputStream.newInstance(bytes);
    List<long[]> expected = new ArrayList<>(); // {kind, value}
    while (out.getTotalBytesWritten() < 5 * WINDOW) {
      int kind = random.nextInt(6);
      long value = random.nextLong() >> random.nextInt(64);
      switch (kind) {
        case 0 -> out.writeInt64NoTag(value);
        case 1 -> out.writeInt32NoTag((int) value);
        case 2 -> {
          value = Double.isNaN(Double.longBitsToDouble(value)) ? 1 : value; // NaN bits may not survive a double
          out.writeFixed64NoTag(value);
        }
        case 3 -> {
          value = Float.isNaN(Float.intBitsToFloat((int) value)) ? 1 : value;
          out.writeFixed32NoTag((int) value);
        }
        case 4 -> {
          int field = Math.max(1, random.nextInt(536_870_912) >>> random.nextInt(29));
          value = (long) field << 3 | random.nextInt(6);
          out.writeUInt32NoTag((int) value);
        }
        default -> {
          value = random.nextInt(20);
          out.writeByteArrayNoTag(new byte[(int) value]);
        }
      }
      expected.add(new long[] {kind, value});
    }
    long[] packedVarints = random.longs(30_000).map(v -> v >> random.nextInt(64)).toArray();
    long[] packedFixed = random.doubles(15_000).mapToLong(Double::doubleToRawLongBits).toArray();
    out.writeTag(1, WireType.LENGTH_DELIMITED);
    out.writeUInt32NoTag(Arrays.stream(packedVarints).mapToInt(CodedOutputStream::computeInt64SizeNoTag).sum());
    for (long value : packedVarints) {
      out.writeInt64NoTag(value);
    }
    out.writeTag(2, WireType.LENGTH_DELIMITED);
    out.writeUInt32NoTag(8 * packedFixed.length);
    for (long value : packedFixed) {
      out.writeFixed64NoTag(value);
    }
    out.flush();
    for (int offset = 0; offset < 12; offset++) { // each run moves every value across the edges by a byte
      byte[] content = new byte[offset + bytes.size()];
      System.arraycopy(bytes.toByteArray(), 0, content, offset, bytes.size());
      int skip = offset;
      onEverySource(content, random, in -> {
        ProtoDecoder d = ProtoDecoder.of(in);
        for (int i = 0; i < skip; i++) {
          assertThat(d.readVarint32()).isZero();
        }
        CodedInputStream reference = CodedInputStream.newInstance(content, skip, bytes.size());
        for (long[] e : expected) {
          switch ((int) e[0]) {
            case 0 -> assertThat(d.readInt64()).isEqualTo(e[1]).isEqualTo(reference.readInt64());
            case 1 -> assertThat(d.readInt32()).isEqualTo((int) e[1]).isEqualTo(reference.readInt32());
            case 2 -> assertThat(Double.doubleToRawLongBits(d.readDouble())).isEqualTo(e[1])
                .isEqualTo(reference.readFixed64());
            case 3 -> assertThat(Float.floatToRawIntBits(d.readFloat())).isEqualTo((int) e[1])
                .isEqualTo(reference.readFixed32());
            case 4 -> assertThat(d.readTag()).isEqualTo((int) e[1]).isEqualTo(reference.readTag());
            default -> assertThat(d.readBytes()).hasSize((int) e[1]).isEqualTo(reference.readByteArray());
          }
        }
        for (long[] packed : List.of(packedVarints, packedFixed)) { // packed fields, read as generated code does
          int tag = reference.readTag();
          assertThat(d.readTag()).isEqualTo(tag);
          int outer = d.enter();
          long[] read = new long[packed.length];
          for (int i = 0; i < read.length && d.hasRemaining(); i++) {
            read[i] = packed == packedFixed ? Double.doubleToRawLongBits(d.readDouble()) : d.readInt64();
          }
          assertThat(read).isEqualTo(packed);
          assertThat(d.hasRemaining()).isFalse();
          d.exit(outer);
          reference.skipField(tag);
        }
        assertThat(d.hasRemaining()).isFalse();
        assertThat(d.readTag()).isZero();
        assertThat(d.position()).isEqualTo(in.writerIndex());
      });
    }
  }

  // ------------------------------------------------------------------ copies

  @Test
  void aLargeBytesValueIsCopiedOnceFromTheBufferIntoItsArray() throws IOException {
    java.lang.management.ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    assumeThat(mx).isInstanceOf(com.sun.management.ThreadMXBean.class);
    com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) mx;
    assumeThat(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled()).isTrue();
    Random random = new Random(20);
    int mib = 1 << 20;
    byte[] payload = random(random, mib);
    byte[] bytes = ProtoWireTest.reference(sample(0, 0, "name", payload, 0, 0, List.of(), 0, null));
    for (int kind = 0; kind < 3; kind++) {
      ByteBuf in = kind == 0 ? PooledByteBufAllocator.DEFAULT.directBuffer(bytes.length).writeBytes(bytes)
          : kind == 1 ? components(bytes, random) : PooledByteBufAllocator.DEFAULT.heapBuffer(bytes.length).writeBytes(bytes);
      try {
        long allocated = Long.MAX_VALUE;
        for (int round = 0; round < 5; round++) { // warm up, then the least of a few (a JIT compile allocates too)
          in.readerIndex(0);
          long before = threads.getCurrentThreadAllocatedBytes();
          Sample back = ProtoWireTest.SAMPLE.read(in);
          allocated = Math.min(allocated, threads.getCurrentThreadAllocatedBytes() - before);
          assertThat(back.d()).isEqualTo(payload);
        }
        // the value's own array and a few small objects; a copy of the content first would be 2 MiB
        assertThat(allocated).as("bytes allocated decoding 1 MiB from %s", in.getClass().getSimpleName())
            .isBetween((long) mib, mib + mib / 10L);
      } finally {
        in.release();
      }
    }
  }
}
