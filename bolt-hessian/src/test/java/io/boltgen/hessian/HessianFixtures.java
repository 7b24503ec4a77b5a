package io.boltgen.hessian;

import com.caucho.hessian.io.Hessian2Input;
import com.caucho.hessian.io.Hessian2Output;
import com.caucho.hessian.io.SerializerFactory;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * What the Hessian tests share: sofa-hessian on each side, random values, a test class and its type. Public (in
 * bolt-hessian's test jar) for bolt-sofarpc's tests of the types it maps.
 */
public final class HessianFixtures {

  private static final SerializerFactory FACTORY = new SerializerFactory();

  private HessianFixtures() {}

  /** A class of the "peer", as SOFARPC would send it (sofa-hessian serializes its fields in declaration order). */
  public static final class Point implements Serializable {
    private static final long serialVersionUID = 1L;
    public int x;
    public long id;
    public double score;
    public String name;
    // javac 18 and newer warn on a List field of a Serializable class; a peer's class has one, and sofa-hessian
    // writes what it holds (an ArrayList), not its declared type
    @SuppressWarnings("serial")
    public List<String> tags;
    public Point child;

    public Point() {}

    Point(int x, long id, double score, String name, List<String> tags, Point child) {
      this.x = x;
      this.id = id;
      this.score = score;
      this.name = name;
      this.tags = tags;
      this.child = child;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Point p && x == p.x && id == p.id && Double.compare(score, p.score) == 0
          && Objects.equals(name, p.name) && Objects.equals(tags, p.tags) && Objects.equals(child, p.child);
    }

    @Override
    public int hashCode() {
      return Objects.hash(x, id, score, name, tags, child);
    }

    @Override
    public String toString() {
      return "Point(" + x + ", " + id + ", " + score + ", " + name + ", " + tags + ", " + child + ")";
    }
  }

  /** Point as generated code would map it: by field name, skipping unknown fields. */
  static final HessianType<Point> POINT = new HessianType<>() {
    private final HessianClass hessianClass =
        HessianClass.of(Point.class.getName(), "x", "id", "score", "name", "tags", "child");

    @Override
    public HessianClass hessianClass() {
      return hessianClass;
    }

    @Override
    public void writeFields(HessianWriter out, Point p) {
      out.writeInt(p.x);
      out.writeLong(p.id);
      out.writeDouble(p.score);
      out.writeString(p.name);
      out.writeList("", p.tags, HessianWriter::writeString);
      out.writeObject(POINT, p.child);
    }

    @Override
    public Point readFields(HessianReader in, HessianClass sent) {
      Point p = new Point();
      for (int i = 0; i < sent.fieldCount(); i++) {
        switch (sent.fieldName(i)) {
          case "x" -> p.x = in.readInt();
          case "id" -> p.id = in.readLong();
          case "score" -> p.score = in.readDouble();
          case "name" -> p.name = in.readString();
          case "tags" -> p.tags = in.readList(HessianReader::readString);
          case "child" -> p.child = in.readObject(POINT);
          default -> in.skipValue();
        }
      }
      return p;
    }
  };

  // ---------------------------------------------------------------- both sides

  interface SofaWrite {
    void write(Hessian2Output out) throws IOException;
  }

  interface SofaRead<T> {
    T read(Hessian2Input in) throws IOException;
  }

  static byte[] sofaWrites(SofaWrite write) {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      Hessian2Output out = new Hessian2Output(bytes);
      out.setSerializerFactory(FACTORY);
      write.write(out);
      out.flush();
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static byte[] sofaWritesObject(Object value) {
    return sofaWrites(out -> out.writeObject(value));
  }

  static <T> T sofaReads(byte[] bytes, SofaRead<T> read) {
    try {
      Hessian2Input in = new Hessian2Input(new ByteArrayInputStream(bytes));
      in.setSerializerFactory(FACTORY);
      return read.read(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static Object sofaReadsObject(byte[] bytes) {
    return sofaReads(bytes, Hessian2Input::readObject);
  }

  /** What {@code write} writes with a {@link HessianWriter}, checking that sizing counts the same bytes. */
  public static byte[] ours(Consumer<HessianWriter> write) {
    ByteBuf buf = Unpooled.buffer();
    try {
      HessianWriter out = HessianWriter.to(buf);
      write.accept(out);
      HessianWriter sizing = HessianWriter.sizing();
      write.accept(sizing);
      if (sizing.size() != buf.readableBytes() || out.size() != buf.readableBytes()) {
        throw new AssertionError("sized " + sizing.size() + " bytes, wrote " + buf.readableBytes());
      }
      return ByteBufUtil.getBytes(buf);
    } finally {
      buf.release();
    }
  }

  /** What {@code read} reads from {@code bytes}, checking that it read them all. */
  public static <T> T weRead(byte[] bytes, Function<HessianReader, T> read) {
    ByteBuf buf = Unpooled.wrappedBuffer(bytes);
    try {
      HessianReader in = new HessianReader(buf);
      T value = read.apply(in);
      if (!in.atEnd()) {
        throw new AssertionError(buf.readableBytes() + " bytes left unread");
      }
      return value;
    } finally {
      buf.release();
    }
  }

  // ---------------------------------------------------------------- random values

  static int randomInt(Random random) {
    return switch (random.nextInt(5)) {
      case 0 -> random.nextInt(64) - 16;
      case 1 -> random.nextInt(4096) - 2048;
      case 2 -> random.nextInt(0x80000) - 0x40000;
      case 3 -> new int[] {Integer.MIN_VALUE, Integer.MAX_VALUE, -17, 48, -2049, 2048, -0x40001, 0x40000}[random.nextInt(8)];
      default -> random.nextInt();
    };
  }

  static long randomLong(Random random) {
    return switch (random.nextInt(6)) {
      case 0 -> random.nextInt(24) - 8;
      case 1 -> random.nextInt(4096) - 2048;
      case 2 -> random.nextInt(0x80000) - 0x40000;
      case 3 -> random.nextInt();
      case 4 -> new long[] {Long.MIN_VALUE, Long.MAX_VALUE, -9, 16, Integer.MIN_VALUE, Integer.MAX_VALUE,
          Integer.MIN_VALUE - 1L, Integer.MAX_VALUE + 1L, -0x40001, 0x40000}[random.nextInt(10)];
      default -> random.nextLong();
    };
  }

  static double randomDouble(Random random) {
    return switch (random.nextInt(7)) {
      case 0 -> new double[] {0.0, -0.0, 1.0, -1.0, Double.NaN, Double.POSITIVE_INFINITY,
          Double.NEGATIVE_INFINITY, Double.MIN_VALUE, Double.MAX_VALUE, 127, -128, 128, 32767, -32768, 32768,
          Float.MAX_VALUE, 1e300, 0.5}[random.nextInt(18)];
      case 1 -> random.nextInt(256) - 128;
      case 2 -> random.nextInt(65536) - 32768;
      case 3 -> random.nextFloat() * 1000;
      case 4 -> random.nextInt();
      default -> random.nextDouble() * Math.pow(10, random.nextInt(40) - 20);
    };
  }

  private static final String[] ALPHABETS = {"abcxyz 019", "\u00e9\u00df\u00f1\u0416", "\u4e2d\u6587\uac00\u20ac",
      "\ud83d\ude00\ud83c\udf89", "\ud800\udfff\u0000\u007f\u0080\u07ff\u0800\uffff"};

  static String randomString(Random random) {
    int length = switch (random.nextInt(10)) {
      case 0 -> 0;
      case 1 -> 0x8000 - 2 + random.nextInt(5);
      case 2 -> 70_000 + random.nextInt(3);
      case 3 -> 31 + random.nextInt(3);
      default -> random.nextInt(40);
    };
    String alphabet = ALPHABETS[random.nextInt(ALPHABETS.length)];
    StringBuilder sb = new StringBuilder(length);
    while (sb.length() < length) {
      int i = random.nextInt(alphabet.length());
      sb.append(alphabet.charAt(i));
    }
    return sb.toString();
  }

  static byte[] randomBytes(Random random) {
    int length = switch (random.nextInt(8)) {
      case 0 -> 0;
      case 1 -> 0x8000 - 1 + random.nextInt(3);
      case 2 -> 70_000;
      case 3 -> 15 + random.nextInt(3);
      default -> random.nextInt(40);
    };
    byte[] bytes = new byte[length];
    random.nextBytes(bytes);
    return bytes;
  }

  static Point randomPoint(Random random, int depth) {
    List<String> tags = null;
    if (random.nextInt(4) > 0) {
      tags = new ArrayList<>();
      for (int i = random.nextInt(300); i > 0; i--) {
        tags.add(random.nextInt(10) == 0 ? null : "t" + random.nextInt(1000));
      }
    }
    double score = randomDouble(random);
    return new Point(randomInt(random), randomLong(random), score == 0 ? 0.0 : score, // -0.0 is written as 0
        random.nextInt(5) == 0 ? null : "p" + random.nextInt(), tags,
        depth > 0 && random.nextBoolean() ? randomPoint(random, depth - 1) : null);
  }
}
