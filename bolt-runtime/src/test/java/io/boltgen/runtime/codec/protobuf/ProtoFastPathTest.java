package io.boltgen.runtime.codec.protobuf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import com.google.protobuf.BytesValue;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import io.boltgen.runtime.codec.Marshaller;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The encoder's and decoder's fast paths against protobuf-java: ASCII strings copied in bulk, other strings
 * encoded without a check per character, bytes staged through the per-thread chunk and copied into direct
 * buffers, content decoded from a heap array or a per-thread copy, varints read without a check per byte;
 * and the slow paths next to them (chunk boundaries, the exact end of a heap buffer, truncated input).
 */
class ProtoFastPathTest {

  private static final ProtoWireTest.Sample EMPTY =
      new ProtoWireTest.Sample(0, 0, null, null, 0, 0, false, List.of(), 0, null);

  private static ProtoWireTest.Sample withString(String s, byte[] before) {
    return new ProtoWireTest.Sample(0, 0, s, before, 0, 0, false, List.of(), 0, null);
  }

  /** Strings that exercise every branch of the UTF-8 encoder. */
  static List<String> strings() {
    List<String> out = new ArrayList<>(List.of("", "a", "customer-0042-7781", "München", "Leopoldstraße", "é",
        "\u07ff\u0800\uffff", "日本語のテキスト", "\uD83D\uDE00", "a\uD83D\uDE00b", "\uD800", "\uDC00", "a\uD800",
        "\uD800a", "\uD800é", "\uD800\uD800\uDC00", "\uDC00\uD800", "\uD83D\uDE00\uDE00", "x\u0000y", "\u007f\u0080"));
    out.add("a".repeat(127));
    out.add("a".repeat(128));
    out.add("é".repeat(64));
    for (int n : new int[] {ProtoEncoder.CHUNK - 1, ProtoEncoder.CHUNK, ProtoEncoder.CHUNK + 1, 3 * ProtoEncoder.CHUNK}) {
      out.add("z".repeat(n));
      out.add("é".repeat(n / 2) + "日".repeat(n / 3));
      out.add("q".repeat(n - 3) + "\uD83D\uDE00");
    }
    return out;
  }

  private static List<Supplier<ByteBuf>> targets() {
    return List.of(
        () -> ByteBufAllocator.DEFAULT.directBuffer(4),
        () -> Unpooled.buffer(4),
        () -> PooledByteBufAllocator.DEFAULT.heapBuffer(4).writeZero(3).skipBytes(3), // array offset, index 3
        () -> PooledByteBufAllocator.DEFAULT.directBuffer(4).writeZero(5).skipBytes(5),
        ByteBufAllocator.DEFAULT::compositeBuffer);
  }

  private static byte[] encode(Marshaller<ProtoWireTest.Sample> m, ProtoWireTest.Sample v, ByteBuf buf) {
    try {
      int before = buf.readableBytes();
      int size = m.encodedSize(v);
      m.write(v, buf);
      assertThat(buf.readableBytes() - before).isEqualTo(size);
      buf.skipBytes(before);
      return ByteBufUtil.getBytes(buf);
    } finally {
      buf.release();
    }
  }

  @Test
  void stringsEncodeLikeProtobufJavaOnEveryKindOfBuffer() throws IOException {
    for (String s : strings()) {
      // a prefix moves the string across the chunk boundary of direct targets
      for (int prefix : new int[] {0, 1, ProtoEncoder.CHUNK - 9, ProtoEncoder.CHUNK - 4}) {
        ProtoWireTest.Sample v = withString(s, prefix == 0 ? null : new byte[prefix]);
        byte[] theirs = ProtoWireTest.reference(v);
        for (Supplier<ByteBuf> target : targets()) {
          byte[] ours = encode(ProtoWireTest.SAMPLE, v, target.get());
          assertThat(ours).as("%s after %d bytes", describe(s), prefix).isEqualTo(theirs);
        }
        // a write without a size pass just before it (the size pass runs again)
        ByteBuf direct = ByteBufAllocator.DEFAULT.directBuffer();
        try {
          ProtoWireTest.SAMPLE.write(v, direct);
          assertThat(ByteBufUtil.getBytes(direct)).isEqualTo(theirs);
        } finally {
          direct.release();
        }
      }
    }
  }

  @Test
  void stringsDecodeLikeProtobufJavaFromEveryKindOfBuffer() throws IOException {
    for (String s : strings()) {
      ProtoWireTest.Sample v = withString(s, null);
      byte[] bytes = ProtoWireTest.reference(v);
      CodedInputStream reference = CodedInputStream.newInstance(bytes);
      reference.readTag();
      String expected = reference.readString(); // what protobuf-java reads back ('?' for a lone surrogate)
      for (ByteBuf in : sources(bytes)) {
        try {
          ProtoWireTest.Sample back = ProtoWireTest.SAMPLE.read(in);
          assertThat(back.s()).as(describe(s)).isEqualTo(expected);
          assertThat(in.readableBytes()).isZero();
        } finally {
          in.release();
        }
      }
    }
  }

  /** The same content in a direct, a heap (at an array offset, after other bytes) and a composite buffer. */
  private static List<ByteBuf> sources(byte[] bytes) {
    ByteBuf direct = PooledByteBufAllocator.DEFAULT.directBuffer(bytes.length).writeBytes(bytes);
    ByteBuf heap = PooledByteBufAllocator.DEFAULT.heapBuffer(bytes.length + 7).writeZero(7).writeBytes(bytes).skipBytes(7);
    CompositeByteBuf composite = ByteBufAllocator.DEFAULT.compositeBuffer();
    int half = bytes.length / 2;
    composite.addComponent(true, Unpooled.copiedBuffer(bytes, 0, half));
    composite.addComponent(true, Unpooled.directBuffer(bytes.length - half + 1).writeBytes(bytes, half, bytes.length - half));
    ByteBuf wrapped = Unpooled.wrappedBuffer(new byte[bytes.length + 20], 10, bytes.length).writerIndex(0).writeBytes(bytes);
    return List.of(direct, heap, composite, wrapped);
  }

  private static String describe(String s) {
    return s.length() > 40 ? s.substring(0, 20) + "…(" + s.length() + " chars)" : s.codePoints()
        .mapToObj(c -> c < 0x80 && c >= 0x20 ? Character.toString(c) : String.format("\\u%04x", c))
        .reduce("", String::concat);
  }

  @Test
  void largeValuesDecodeFromDirectBuffersBeyondTheRetainedCopy() throws IOException {
    Random random = new Random(7);
    byte[] big = new byte[ProtoDecoder.MAX_RETAINED_SCRATCH + 1000];
    random.nextBytes(big);
    ProtoWireTest.Sample v = withString("ä".repeat(40_000) + "tail", big);
    byte[] bytes = ProtoWireTest.reference(v);
    for (int round = 0; round < 2; round++) { // the second read after a large one: the copy kept is bounded
      for (ByteBuf in : sources(bytes)) {
        try {
          assertThat(ProtoWireTest.reference(ProtoWireTest.SAMPLE.read(in))).isEqualTo(bytes);
        } finally {
          in.release();
        }
      }
      small();
    }
  }

  private static void small() throws IOException {
    ProtoWireTest.Sample v = withString("small", new byte[] {1, 2, 3});
    ByteBuf in = Unpooled.directBuffer().writeBytes(ProtoWireTest.reference(v));
    try {
      assertThat(ProtoWireTest.SAMPLE.read(in).s()).isEqualTo("small");
    } finally {
      in.release();
    }
  }

  @Test
  void largeBytesAndEmbeddedMessagesCrossTheChunk() throws IOException {
    Marshaller<BytesValue> wrap = ProtoMarshaller.of("test.Wrap",
        (v, e) -> 1 + ProtoMessages.size(v),
        (v, e) -> {
          e.writeTag(10);
          ProtoMessages.write(e, v);
        },
        d -> {
          BytesValue value = null;
          for (int tag = d.readTag(); tag != 0; tag = d.readTag()) {
            if (tag == 10) {
              value = ProtoMessages.read(d, BytesValue.parser());
            } else {
              d.skipField(tag);
            }
          }
          return value;
        });
    for (int n : new int[] {0, 10, ProtoEncoder.CHUNK - 10, ProtoEncoder.CHUNK + 10, 5 * ProtoEncoder.CHUNK}) {
      byte[] payload = new byte[n];
      new Random(n).nextBytes(payload);
      BytesValue v = BytesValue.newBuilder().setValue(ByteString.copyFrom(payload)).build();
      ByteArrayOutputStream reference = new ByteArrayOutputStream();
      CodedOutputStream out = CodedOutputStream.newInstance(reference);
      out.writeMessage(1, v);
      out.flush();
      for (Supplier<ByteBuf> target : targets()) {
        ByteBuf buf = target.get();
        int before = buf.readableBytes();
        try {
          int size = wrap.encodedSize(v);
          wrap.write(v, buf);
          assertThat(buf.readableBytes() - before).isEqualTo(size);
          buf.skipBytes(before);
          assertThat(ByteBufUtil.getBytes(buf)).isEqualTo(reference.toByteArray());
          assertThat(wrap.read(buf)).isEqualTo(v);
        } finally {
          buf.release();
        }
      }
      ProtoWireTest.Sample s = withString("x", payload);
      for (Supplier<ByteBuf> target : targets()) {
        assertThat(encode(ProtoWireTest.SAMPLE, s, target.get())).isEqualTo(ProtoWireTest.reference(s));
      }
    }
  }

  @Test
  void everyTruncationFailsWithADecodeException() throws IOException {
    List<ProtoWireTest.Sample> children = List.of(withString("Leopoldstraße", null), withString("a".repeat(300), null));
    ProtoWireTest.Sample v = new ProtoWireTest.Sample(-5, Long.MIN_VALUE, "München \uD83D\uDE00", new byte[] {1, 2},
        1.5, 2.5f, true, children, -1, null);
    byte[] bytes = ProtoWireTest.reference(v);
    for (int n = 0; n < bytes.length; n++) {
      for (ByteBuf in : sources(java.util.Arrays.copyOf(bytes, n))) {
        try {
          ProtoWireTest.SAMPLE.read(in); // a prefix ending on a field boundary is a valid message
        } catch (RuntimeException e) {
          assertThat(e).as("prefix of %d bytes", n).isInstanceOf(ProtoDecodeException.class);
        } finally {
          in.release();
        }
      }
    }
  }

  @Test
  void hostileLengthsAndVarintsFailCleanly() {
    byte[][] inputs = {
        {26, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x0f, 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'},
        {26, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x07, 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'},
        // a negative length, sign-extended to ten bytes
        {26, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff,
            (byte) 0xff, 0x01, 'a', 'b'},
        {26, 3, 'a', 'b'},
        {34, 11, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10},
        // eleven varint bytes, with (fast path) and without (slow path) ten bytes of room
        {16, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80,
            (byte) 0x80, (byte) 0x80, 1, 0, 0, 0},
        {16, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80},
        {8, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80,
            (byte) 0x80, (byte) 0x80, 1, 0, 0, 0},
        {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80,
            (byte) 0x80, (byte) 0x80, 1, 0, 0, 0},
        {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
        {41, 1, 2, 3, 4, 5, 6, 7},
        {53, 1, 2, 3},
        {66, 5, 26, 10, 'a'},
    };
    for (byte[] input : inputs) {
      for (ByteBuf in : sources(input)) {
        try {
          assertThatThrownBy(() -> ProtoWireTest.SAMPLE.read(in)).isInstanceOf(ProtoDecodeException.class);
        } finally {
          in.release();
        }
      }
    }
  }

  @Test
  void varintsReadLikeProtobufJavaWithAndWithoutRoomForTheLongest() throws IOException {
    Random random = new Random(3);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    CodedOutputStream out = CodedOutputStream.newInstance(bytes);
    long[] longs = new long[2000];
    int[] ints = new int[2000];
    for (int i = 0; i < longs.length; i++) {
      longs[i] = random.nextLong() >> random.nextInt(64);
      ints[i] = random.nextInt() >> random.nextInt(32);
      out.writeInt64NoTag(longs[i]);
      out.writeInt32NoTag(ints[i]);
      out.writeUInt32NoTag(ints[i]);
    }
    out.flush();
    for (ByteBuf in : sources(bytes.toByteArray())) {
      try {
        ProtoDecoder d = ProtoDecoder.of(in);
        for (int i = 0; i < longs.length; i++) {
          assertThat(d.readInt64()).isEqualTo(longs[i]);
          assertThat(d.readInt32()).isEqualTo(ints[i]);
          assertThat(d.readVarint32()).isEqualTo(ints[i]);
        }
        assertThat(d.hasRemaining()).isFalse();
        assertThat(d.position()).isEqualTo(in.writerIndex());
      } finally {
        in.release();
      }
    }
  }

  @Test
  void aDecodeInsideADecodeOnTheSameThreadGetsItsOwnCopy() throws IOException {
    ProtoWireTest.Sample inner = withString("inner value", new byte[] {9});
    byte[] innerBytes = ProtoWireTest.reference(inner);
    Marshaller<List<ProtoWireTest.Sample>> outer = ProtoMarshaller.of("test.Outer",
        (v, e) -> 0,
        (v, e) -> { },
        d -> {
          ByteBuf other = Unpooled.directBuffer().writeBytes(innerBytes);
          try {
            ProtoWireTest.Sample nested = ProtoWireTest.SAMPLE.read(other); // as a record constructor might
            return List.of(nested, ProtoWireTest.read(d));
          } finally {
            other.release();
          }
        });
    ProtoWireTest.Sample v = withString("outer value that is longer", new byte[] {1, 2, 3});
    ByteBuf in = Unpooled.directBuffer().writeBytes(ProtoWireTest.reference(v));
    try {
      List<ProtoWireTest.Sample> both = outer.read(in);
      assertThat(both.get(0).s()).isEqualTo("inner value");
      assertThat(both.get(1).s()).isEqualTo("outer value that is longer");
    } finally {
      in.release();
    }
  }

  @Test
  void aStringReplacedBetweenThePassesFailsTheWrite() {
    List<ProtoWireTest.Sample> children = new ArrayList<>(List.of(EMPTY));
    ProtoWireTest.Sample v = new ProtoWireTest.Sample(0, 0, null, null, 0, 0, false, children, 0, null);
    // same length in characters, not in bytes: an ASCII string's bulk copy must not take the other one
    String[][] swaps = {{"e", "é"}, {"é", "e"}, {"ab", "日b"}};
    for (String[] swap : swaps) {
      for (Supplier<ByteBuf> target : targets()) {
        ByteBuf buf = target.get();
        try {
          children.set(0, withString(swap[0], null));
          ProtoWireTest.SAMPLE.encodedSize(v);
          children.set(0, withString(swap[1], null));
          assertThatThrownBy(() -> ProtoWireTest.SAMPLE.write(v, buf)).isInstanceOf(IllegalStateException.class);
        } finally {
          buf.release();
        }
      }
    }
    assertThat(encode(ProtoWireTest.SAMPLE, EMPTY, Unpooled.directBuffer())).isEmpty();
  }
}
