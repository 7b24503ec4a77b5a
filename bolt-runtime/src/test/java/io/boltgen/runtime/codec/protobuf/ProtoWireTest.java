package io.boltgen.runtime.codec.protobuf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.Duration;
import com.google.protobuf.Timestamp;
import io.boltgen.runtime.codec.Marshaller;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The wire primitives against protobuf-java's own: sizes, varints, strings, nesting, unknown fields and
 * limits, on a hand-written codec shaped like the generated ones.
 */
class ProtoWireTest {

  /** What a generated codec would be for: message Sample { int32 a=1; int64 b=2; string s=3; bytes d=4;
   * double x=5; float y=6; bool z=7; repeated Sample children=8; uint32 c=9; Timestamp t=10 (embedded) }. */
  @SuppressWarnings("ArrayRecordComponent") // the bytes field of a message as a boltgen record holds it
  record Sample(int a, long b, String s, byte[] d, double x, float y, boolean z, List<Sample> children, int c,
      Timestamp t) {}

  static int size(Sample v, ProtoEncoder e) {
    int size = 0;
    if (v.a() != 0) {
      size += 1 + ProtoSizes.int32(v.a());
    }
    if (v.b() != 0) {
      size += 1 + ProtoSizes.int64(v.b());
    }
    if (v.s() != null) {
      size += 1 + e.string(v.s());
    }
    if (v.d() != null) {
      size += 1 + ProtoSizes.bytes(v.d());
    }
    if (Double.doubleToRawLongBits(v.x()) != 0) {
      size += 1 + 8;
    }
    if (Float.floatToRawIntBits(v.y()) != 0) {
      size += 1 + 4;
    }
    if (v.z()) {
      size += 1 + 1;
    }
    for (Sample child : v.children()) {
      size += 1 + e.nested(e.reserve(), size(ProtoEncoder.element(child), e));
    }
    if (v.c() != 0) {
      size += 1 + ProtoSizes.varint32(v.c());
    }
    if (v.t() != null) {
      size += 1 + ProtoMessages.size(v.t());
    }
    return size;
  }

  static void write(Sample v, ProtoEncoder e) {
    if (v.a() != 0) {
      e.writeTag(8);
      e.writeInt32(v.a());
    }
    if (v.b() != 0) {
      e.writeTag(16);
      e.writeInt64(v.b());
    }
    if (v.s() != null) {
      e.writeTag(26);
      e.writeString(v.s());
    }
    if (v.d() != null) {
      e.writeTag(34);
      e.writeBytes(v.d());
    }
    if (Double.doubleToRawLongBits(v.x()) != 0) {
      e.writeTag(41);
      e.writeDouble(v.x());
    }
    if (Float.floatToRawIntBits(v.y()) != 0) {
      e.writeTag(53);
      e.writeFloat(v.y());
    }
    if (v.z()) {
      e.writeTag(56);
      e.writeBool(true);
    }
    for (Sample child : v.children()) {
      e.writeTag(66);
      e.writeLength();
      write(child, e);
    }
    if (v.c() != 0) {
      e.writeTag(72);
      e.writeVarint32(v.c());
    }
    if (v.t() != null) {
      e.writeTag(82);
      ProtoMessages.write(e, v.t());
    }
  }

  static Sample read(ProtoDecoder d) {
    int a = 0;
    long b = 0;
    String s = null;
    byte[] bytes = null;
    double x = 0;
    float y = 0;
    boolean z = false;
    List<Sample> children = null;
    int c = 0;
    Timestamp t = null;
    for (int tag = d.readTag(); tag != 0; tag = d.readTag()) {
      switch (tag) {
        case 8:
          a = d.readInt32();
          break;
        case 16:
          b = d.readInt64();
          break;
        case 26:
          s = d.readString();
          break;
        case 34:
          bytes = d.readBytes();
          break;
        case 41:
          x = d.readDouble();
          break;
        case 53:
          y = d.readFloat();
          break;
        case 56:
          z = d.readBool();
          break;
        case 66:
          children = ProtoDecoder.add(children, d.readMessage(ProtoWireTest::read));
          break;
        case 72:
          c = d.readVarint32();
          break;
        case 82:
          t = ProtoMessages.read(d, Timestamp.parser());
          break;
        default:
          d.skipField(tag);
          break;
      }
    }
    return new Sample(a, b, s, bytes, x, y, z, ProtoDecoder.list(children), c, t);
  }

  static final Marshaller<Sample> SAMPLE =
      ProtoMarshaller.of("test.Sample", ProtoWireTest::size, ProtoWireTest::write, ProtoWireTest::read);

  /** The same message written by protobuf-java. */
  static byte[] reference(Sample v) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    CodedOutputStream out = CodedOutputStream.newInstance(bytes);
    writeReference(v, out);
    out.flush();
    return bytes.toByteArray();
  }

  private static void writeReference(Sample v, CodedOutputStream out) throws IOException {
    if (v.a() != 0) {
      out.writeInt32(1, v.a());
    }
    if (v.b() != 0) {
      out.writeInt64(2, v.b());
    }
    if (v.s() != null) {
      out.writeString(3, v.s());
    }
    if (v.d() != null) {
      out.writeByteArray(4, v.d());
    }
    if (Double.doubleToRawLongBits(v.x()) != 0) {
      out.writeDouble(5, v.x());
    }
    if (Float.floatToRawIntBits(v.y()) != 0) {
      out.writeFloat(6, v.y());
    }
    if (v.z()) {
      out.writeBool(7, true);
    }
    for (Sample child : v.children()) {
      out.writeByteArray(8, reference(child));
    }
    if (v.c() != 0) {
      out.writeUInt32(9, v.c());
    }
    if (v.t() != null) {
      out.writeMessage(10, v.t());
    }
  }

  private final Random random = new Random(42);

  private Sample sample(int depth) {
    List<Sample> children = new ArrayList<>();
    for (int i = depth == 0 ? 0 : random.nextInt(3); i > 0; i--) {
      children.add(sample(depth - 1));
    }
    byte[] d = random.nextBoolean() ? null : new byte[random.nextInt(200)];
    if (d != null) {
      random.nextBytes(d);
    }
    StringBuilder s = new StringBuilder();
    for (int i = random.nextInt(300); i > 0; i--) {
      s.appendCodePoint(random.nextInt(4) == 0 ? 0x10000 + random.nextInt(0x1000) : random.nextInt(0xD000));
    }
    return new Sample(random.nextInt() >> random.nextInt(32), random.nextLong() >> random.nextInt(64),
        random.nextBoolean() ? null : s.toString(), d, random.nextBoolean() ? 0 : random.nextGaussian(),
        random.nextBoolean() ? -0f : random.nextFloat(), random.nextBoolean(), children,
        random.nextInt() >>> random.nextInt(32),
        random.nextBoolean() ? null : Timestamp.newBuilder().setSeconds(random.nextLong()).setNanos(5).build());
  }

  private static byte[] encode(Marshaller<Sample> m, Sample v, ByteBuf buf) {
    try {
      int size = m.encodedSize(v);
      m.write(v, buf);
      assertThat(buf.readableBytes()).isEqualTo(size);
      return ByteBufUtil.getBytes(buf);
    } finally {
      buf.release();
    }
  }

  @Test
  void bytesEqualProtobufJavasAndDecodeBack() throws IOException {
    for (int i = 0; i < 300; i++) {
      Sample v = sample(3);
      ByteBuf buf = i % 3 == 0 ? ByteBufAllocator.DEFAULT.directBuffer(4)
          : i % 3 == 1 ? ByteBufAllocator.DEFAULT.heapBuffer(4) : ByteBufAllocator.DEFAULT.compositeBuffer();
      byte[] ours = encode(SAMPLE, v, buf);
      byte[] theirs = reference(v);
      assertThat(ours).isEqualTo(theirs);
      ByteBuf in = ByteBufAllocator.DEFAULT.directBuffer(theirs.length).writeBytes(theirs);
      try {
        Sample back = SAMPLE.read(in);
        assertThat(in.readableBytes()).isZero();
        assertThat(reference(back)).isEqualTo(theirs);
      } finally {
        in.release();
      }
    }
  }

  @Test
  void sizesMatchProtobufJava() {
    for (int i = 0; i < 100_000; i++) {
      int n = random.nextInt() >> random.nextInt(32);
      long l = random.nextLong() >> random.nextInt(64);
      assertThat(ProtoSizes.int32(n)).isEqualTo(CodedOutputStream.computeInt32SizeNoTag(n));
      assertThat(ProtoSizes.varint32(n)).isEqualTo(CodedOutputStream.computeUInt32SizeNoTag(n));
      assertThat(ProtoSizes.int64(l)).isEqualTo(CodedOutputStream.computeInt64SizeNoTag(l));
    }
    assertThat(ProtoMessages.size(Duration.newBuilder().setSeconds(3).build())).isEqualTo(3);
  }

  @Test
  void varintsReadLikeProtobufJava() throws IOException {
    for (int i = 0; i < 10_000; i++) {
      long l = random.nextLong() >> random.nextInt(64);
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      CodedOutputStream out = CodedOutputStream.newInstance(bytes);
      out.writeInt64NoTag(l);
      out.writeInt32NoTag((int) l);
      out.flush();
      byte[] b = bytes.toByteArray();
      ProtoDecoder d = ProtoDecoder.of(Unpooled.wrappedBuffer(b));
      CodedInputStream ref = CodedInputStream.newInstance(b);
      assertThat(d.readInt64()).isEqualTo(ref.readInt64());
      assertThat(d.readInt32()).isEqualTo(ref.readInt32());
      assertThat(d.hasRemaining()).isFalse();
    }
  }

  @Test
  void unknownFieldsAndGroupsAreSkipped() throws IOException {
    Sample v = sample(2);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    CodedOutputStream out = CodedOutputStream.newInstance(bytes);
    out.writeTag(100, 3);
    out.writeTag(101, 3);
    out.writeFixed64(1, 9);
    out.writeTag(101, 4);
    out.writeString(2, "x");
    out.writeTag(100, 4);
    out.writeFixed32(102, 1);
    out.writeBytes(103, ByteString.copyFromUtf8("y"));
    out.writeUInt64(104, Long.MAX_VALUE);
    out.writeRawBytes(reference(v));
    out.flush();
    assertThat(reference(SAMPLE.read(Unpooled.wrappedBuffer(bytes.toByteArray())))).isEqualTo(reference(v));
  }

  @Test
  void malformedInputFailsClearly() {
    assertThatThrownBy(() -> SAMPLE.read(Unpooled.wrappedBuffer(new byte[] {26, 5, 'a'})))
        .isInstanceOf(ProtoDecodeException.class).hasMessageContaining("test.Sample").hasMessageContaining("bad length");
    assertThatThrownBy(() -> SAMPLE.read(Unpooled.wrappedBuffer(new byte[] {8, (byte) 0x80})))
        .isInstanceOf(ProtoDecodeException.class).hasMessageContaining("truncated");
    assertThatThrownBy(() -> SAMPLE.read(Unpooled.wrappedBuffer(new byte[] {(byte) 0xa3, 6, 8, 1}))) // group 100, no end
        .isInstanceOf(ProtoDecodeException.class).hasMessageContaining("not closed");
    assertThatThrownBy(() -> SAMPLE.read(Unpooled.wrappedBuffer(new byte[] {15, 0}))) // wire type 7
        .isInstanceOf(ProtoDecodeException.class).hasMessageContaining("wire type");
    assertThatThrownBy(() -> SAMPLE.read(Unpooled.wrappedBuffer(new byte[] {41, 1, 2}))) // double, 2 of 8 bytes
        .isInstanceOf(ProtoDecodeException.class).hasMessageContaining("truncated");
    byte[] deep = new byte[0];
    for (int i = 0; i < 101; i++) {
      byte[] outer = new byte[deep.length + 1 + CodedOutputStream.computeUInt32SizeNoTag(deep.length)];
      outer[0] = 66;
      int at = 1;
      int n = deep.length;
      while ((n & ~0x7F) != 0) {
        outer[at++] = (byte) ((n & 0x7F) | 0x80);
        n >>>= 7;
      }
      outer[at++] = (byte) n;
      System.arraycopy(deep, 0, outer, at, deep.length);
      deep = outer;
    }
    byte[] tooDeep = deep;
    assertThatThrownBy(() -> SAMPLE.read(Unpooled.wrappedBuffer(tooDeep)))
        .isInstanceOf(ProtoDecodeException.class).hasMessageContaining("deeper than 100");
    assertThatThrownBy(() -> ProtoDecoder.toByte(128)).isInstanceOf(ProtoDecodeException.class);
    assertThatThrownBy(() -> ProtoDecoder.toShort(-40000)).isInstanceOf(ProtoDecodeException.class);
    assertThatThrownBy(() -> ProtoDecoder.toChar(-1)).isInstanceOf(ProtoDecodeException.class);
  }

  @Test
  void aValueThatChangesBetweenThePassesIsDetected() {
    List<Sample> children = new ArrayList<>();
    Sample v = new Sample(1, 0, "s", null, 0, 0, false, children, 0, null);
    int size = SAMPLE.encodedSize(v);
    children.add(new Sample(2, 0, null, null, 0, 0, false, List.of(), 0, null)); // mutated after sizing
    ByteBuf buf = ByteBufAllocator.DEFAULT.heapBuffer(size);
    try {
      assertThatThrownBy(() -> SAMPLE.write(v, buf)).isInstanceOf(RuntimeException.class);
    } finally {
      buf.release();
    }
    // the encoder recovers: the next value encodes normally
    Sample w = sample(2);
    byte[] bytes = encode(SAMPLE, w, ByteBufAllocator.DEFAULT.heapBuffer());
    assertThat(bytes).hasSize(SAMPLE.encodedSize(w));
  }

  @Test
  void writeWithoutAPrecedingSizePassWorks() throws IOException {
    Sample v = sample(3);
    ByteBuf buf = ByteBufAllocator.DEFAULT.directBuffer();
    try {
      SAMPLE.write(v, buf);
      assertThat(ByteBufUtil.getBytes(buf)).isEqualTo(reference(v));
    } finally {
      buf.release();
    }
  }

  @Test
  void protobufMessagesMarshalStraightThroughTheBuffer() {
    MessageMarshaller<Timestamp> m = MessageMarshaller.of(Timestamp.parser());
    Timestamp t = Timestamp.newBuilder().setSeconds(123456789).setNanos(42).build();
    for (ByteBuf buf : new ByteBuf[] {ByteBufAllocator.DEFAULT.directBuffer(), ByteBufAllocator.DEFAULT.heapBuffer(),
        compositeOfTwo()}) {
      try {
        int before = buf.readableBytes();
        m.write(t, buf);
        assertThat(buf.readableBytes() - before).isEqualTo(m.encodedSize(t));
        buf.skipBytes(before);
        assertThat(m.read(buf)).isEqualTo(t);
        assertThat(buf.readableBytes()).isZero();
      } finally {
        buf.release();
      }
    }
    assertThat(m.encodedSize(null)).isZero();
    assertThat(m.read(Unpooled.EMPTY_BUFFER)).isEqualTo(Timestamp.getDefaultInstance());
  }

  private static ByteBuf compositeOfTwo() {
    CompositeByteBuf c = ByteBufAllocator.DEFAULT.compositeBuffer();
    c.addComponent(true, ByteBufAllocator.DEFAULT.heapBuffer(2).writeByte(1));
    c.addComponent(true, ByteBufAllocator.DEFAULT.directBuffer(2).writeByte(2));
    return c;
  }
}
