package io.boltgen.bench.jmh;

import io.boltgen.bench.codec.OrderFixtures;
import io.boltgen.bench.codec.model.Order;
import io.boltgen.bench.codec.model.OrderServiceBolt;
import io.boltgen.json.JsonForms;
import io.boltgen.json.JsonMarshaller;
import io.boltgen.json.ProtoJson;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.codec.Marshaller;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The same {@link Order} (see {@link OrderFixtures}) through the two generated codecs of one message, the result of
 * {@code Order echoOrder(Order)} ({@link OrderServiceBolt#METHOD_ECHO_ORDER}: the order as field 1):
 *
 * <ul>
 *   <li>{@code protobuf}: its protobuf marshaller ({@code responseMarshaller()}) as the runtime drives it: exact size,
 *       then a write into a reused pooled direct buffer; a read from one;</li>
 *   <li>{@code json}: its JSON marshaller ({@code JsonForms.response(method)}) through {@link ProtoJson#write}
 *       into a reused byte stream and {@link ProtoJson#read} from a reused stream over the encoded bytes (unknown
 *       fields refused), as the HTTP path reads and writes bodies.</li>
 * </ul>
 *
 * Encode, decode, and both (round trip). A build whose generated services have no JSON codecs
 * ({@code JsonForms.response(method)} null) fails at setup with {@link #NO_JSON}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class JsonCodecBenchmark {

  /** Why the JSON rows cannot run in a build without generated JSON codecs. */
  public static final String NO_JSON = "JsonForms.response(OrderServiceBolt.METHOD_ECHO_ORDER) is null: the generated"
      + " services of this build have no JSON codecs (JsonForms), so the JSON codec"
      + " cannot be measured; build with a bolt-processor that generates them";

  /** The codecs, in report order. */
  public static final java.util.List<String> CODECS = java.util.List.of("protobuf", "json");

  private Order order;
  private Marshaller<Order> protobuf;
  private ByteBuf protobufOut;
  private ByteBuf protobufEncoded;


  /** The method whose result message both codecs carry. */
  static MethodDescriptor<?, Order> method() {
    return OrderServiceBolt.METHOD_ECHO_ORDER;
  }

  /** The generated JSON codec of the result, or null in a build without JSON codecs. */
  public static JsonMarshaller<Order> jsonMarshaller() {
    return JsonForms.response(method());
  }

  @Setup(Level.Trial)
  public void setUp() {
    order = OrderFixtures.order();
    protobuf = method().responseMarshaller();
    protobufOut = PooledByteBufAllocator.DEFAULT.directBuffer(4096);
    protobufEncoded = PooledByteBufAllocator.DEFAULT.directBuffer(4096);
    protobuf.write(order, protobufEncoded.ensureWritable(protobuf.encodedSize(order)));
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    protobufOut.release();
    protobufEncoded.release();
  }

  // ------------------------------------------------------------------ protobuf

  @Benchmark
  public ByteBuf protobuf_encode() {
    return protobufWrite(order);
  }

  @Benchmark
  public Order protobuf_decode() {
    protobufEncoded.readerIndex(0);
    return protobuf.read(protobufEncoded);
  }

  @Benchmark
  public Order protobuf_roundTrip() {
    return protobuf.read(protobufWrite(order));
  }

  private ByteBuf protobufWrite(Order value) {
    int size = protobuf.encodedSize(value);
    ByteBuf out = protobufOut.clear();
    out.ensureWritable(size);
    protobuf.write(value, out);
    return out;
  }

  // ------------------------------------------------------------------ JSON

  /**
   * The JSON codec's state, apart from the protobuf one's: in a build without a JSON codec its setup fails (saying
   * {@link #NO_JSON}) and only the JSON benchmarks with it.
   */
  @State(Scope.Thread)
  public static class Json {
    Order order;
    JsonMarshaller<Order> json;
    Scratch out;
    byte[] encoded;
    BytesIn in;

    @Setup(Level.Trial)
    public void setUp() {
      order = OrderFixtures.order();
      json = jsonMarshaller();
      if (json == null) {
        throw new IllegalStateException(NO_JSON);
      }
      out = new Scratch();
      ProtoJson.write(json, order, out);
      encoded = out.toByteArray();
      in = new BytesIn();
    }

    Scratch write(Order value) {
      out.reset();
      ProtoJson.write(json, value, out);
      return out;
    }
  }

  @Benchmark
  public Scratch json_encode(Json s) {
    return s.write(s.order);
  }

  @Benchmark
  public Order json_decode(Json s) {
    return ProtoJson.read(s.json, s.in.reset(s.encoded, s.encoded.length), false);
  }

  @Benchmark
  public Order json_roundTrip(Json s) {
    Scratch out = s.write(s.order);
    return ProtoJson.read(s.json, s.in.reset(out.bytes(), out.size()), false);
  }

  // ------------------------------------------------------------------ for tests and reports

  /** Encoded sizes in bytes, by codec name, of the benchmark order; JSON only when the build has its codec. */
  public static java.util.Map<String, Integer> encodedSizes() {
    java.util.Map<String, Integer> sizes = new java.util.LinkedHashMap<>();
    Order order = OrderFixtures.order();
    sizes.put("protobuf", method().responseMarshaller().encodedSize(order));
    if (jsonMarshaller() != null) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ProtoJson.write(jsonMarshaller(), order, out);
      sizes.put("json", out.size());
    }
    return sizes;
  }

  /** A byte stream reused from call to call, whose bytes are read without a copy. */
  public static final class Scratch extends ByteArrayOutputStream {
    Scratch() {
      super(4096);
    }

    byte[] bytes() {
      return buf;
    }
  }

  /** An input stream over a byte array, pointed at new bytes without allocating. */
  static final class BytesIn extends InputStream {
    private byte[] bytes = new byte[0];
    private int position;
    private int limit;

    BytesIn reset(byte[] bytes, int length) {
      this.bytes = bytes;
      this.position = 0;
      this.limit = length;
      return this;
    }

    @Override
    public int read() {
      return position < limit ? bytes[position++] & 0xff : -1;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      if (len == 0) {
        return 0;
      }
      if (position >= limit) {
        return -1;
      }
      int n = Math.min(len, limit - position);
      System.arraycopy(bytes, position, b, off, n);
      position += n;
      return n;
    }

    @Override
    public int available() {
      return limit - position;
    }
  }
}
