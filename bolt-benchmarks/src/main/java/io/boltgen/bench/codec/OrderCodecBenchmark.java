package io.boltgen.bench.codec;

import com.caucho.hessian.io.Hessian2Input;
import com.caucho.hessian.io.Hessian2Output;
import com.caucho.hessian.io.SerializerFactory;
import com.google.protobuf.CodedOutputStream;
import io.boltgen.bench.codec.hessian.HOrder;
import io.boltgen.bench.codec.model.Order;
import io.boltgen.bench.codec.proto.OrderProto;
import io.boltgen.runtime.codec.Marshaller;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
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
 * Encode, decode and round trip of one {@link Order} (see {@link OrderFixtures}) in four ways:
 *
 * <ul>
 *   <li>{@code boltgen}: the record codec ({@link OrderCodecs#boltgen()}) as the runtime drives it — exact
 *       size, then write into a pooled direct buffer; read from it;</li>
 *   <li>{@code protobufBytes}: protoc-generated protobuf-java on {@code byte[]} ({@code toByteArray},
 *       {@code parseFrom(byte[])}), its most common and fastest path;</li>
 *   <li>{@code protobufDirect}: protobuf-java writing into and parsing from the same kind of pooled direct
 *       buffer boltgen uses (through {@code nioBuffer}), as a Netty RPC would;</li>
 *   <li>{@code hessian2}: sofa-hessian, the way SOFABolt's default serializer does it (a thread-local
 *       {@code ByteArrayOutputStream}, one {@code Hessian2Output}/{@code Hessian2Input} per call, one
 *       shared {@code SerializerFactory}).</li>
 * </ul>
 *
 * The ByteBuf-based variants reuse one buffer per thread (the frame allocation is not the codec's cost);
 * every variant returns what it produced so nothing is optimised away. Run with {@code -prof gc} for
 * bytes allocated per operation.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class OrderCodecBenchmark {

  private Order order;
  private Marshaller<Order> boltgen;
  private ByteBuf boltgenOut;
  private ByteBuf boltgenEncoded;

  private OrderProto.Order proto;
  private byte[] protoBytes;
  private ByteBuf protoOut;
  private ByteBuf protoEncoded;

  private HOrder hessianOrder;
  private SerializerFactory hessianFactory;
  private ByteArrayOutputStream hessianScratch;
  private byte[] hessianBytes;

  @Setup(Level.Trial)
  public void setUp() {
    order = OrderFixtures.order();
    boltgen = OrderCodecs.boltgen();
    boltgenOut = PooledByteBufAllocator.DEFAULT.directBuffer(4096);
    boltgenEncoded = PooledByteBufAllocator.DEFAULT.directBuffer(4096);
    boltgen.encodedSize(order);
    boltgen.write(order, boltgenEncoded);

    proto = OrderFixtures.proto(order);
    protoBytes = proto.toByteArray();
    protoOut = PooledByteBufAllocator.DEFAULT.directBuffer(4096);
    protoEncoded = PooledByteBufAllocator.DEFAULT.directBuffer(4096);
    protoEncoded.writeBytes(protoBytes);

    hessianOrder = OrderFixtures.hessian(order);
    hessianFactory = new SerializerFactory();
    hessianScratch = new ByteArrayOutputStream();
    hessianBytes = hessianEncode();
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    boltgenOut.release();
    boltgenEncoded.release();
    protoOut.release();
    protoEncoded.release();
  }

  // ------------------------------------------------------------------ boltgen

  @Benchmark
  public ByteBuf boltgen_encode() {
    return boltgenWrite(order);
  }

  @Benchmark
  public Order boltgen_decode() {
    boltgenEncoded.readerIndex(0);
    return boltgen.read(boltgenEncoded);
  }

  @Benchmark
  public Order boltgen_roundTrip() {
    return boltgen.read(boltgenWrite(order));
  }

  private ByteBuf boltgenWrite(Order value) {
    int size = boltgen.encodedSize(value);
    ByteBuf out = boltgenOut.clear();
    out.ensureWritable(size);
    boltgen.write(value, out);
    return out;
  }

  // ------------------------------------------------------------------ protobuf-java, byte[]

  @Benchmark
  public byte[] protobufBytes_encode() {
    return proto.toByteArray();
  }

  @Benchmark
  public OrderProto.Order protobufBytes_decode() throws IOException {
    return OrderProto.Order.parseFrom(protoBytes);
  }

  @Benchmark
  public OrderProto.Order protobufBytes_roundTrip() throws IOException {
    return OrderProto.Order.parseFrom(proto.toByteArray());
  }

  // ------------------------------------------------------------------ protobuf-java, direct ByteBuf

  @Benchmark
  public ByteBuf protobufDirect_encode() throws IOException {
    return protoWrite(proto);
  }

  @Benchmark
  public OrderProto.Order protobufDirect_decode() throws IOException {
    return OrderProto.Order.parseFrom(protoEncoded.nioBuffer(0, protoEncoded.writerIndex()));
  }

  @Benchmark
  public OrderProto.Order protobufDirect_roundTrip() throws IOException {
    ByteBuf out = protoWrite(proto);
    return OrderProto.Order.parseFrom(out.nioBuffer(0, out.writerIndex()));
  }

  private ByteBuf protoWrite(OrderProto.Order value) throws IOException {
    int size = value.getSerializedSize();
    ByteBuf out = protoOut.clear();
    out.ensureWritable(size);
    CodedOutputStream stream = CodedOutputStream.newInstance(out.nioBuffer(0, size));
    value.writeTo(stream);
    stream.flush();
    out.writerIndex(size);
    return out;
  }

  // ------------------------------------------------------------------ Hessian2

  @Benchmark
  public byte[] hessian2_encode() {
    return hessianEncode();
  }

  @Benchmark
  public Object hessian2_decode() {
    return hessianDecode(hessianBytes);
  }

  @Benchmark
  public Object hessian2_roundTrip() {
    return hessianDecode(hessianEncode());
  }

  private byte[] hessianEncode() {
    ByteArrayOutputStream bytes = hessianScratch;
    bytes.reset();
    Hessian2Output output = new Hessian2Output(bytes);
    output.setSerializerFactory(hessianFactory);
    try {
      output.writeObject(hessianOrder);
      output.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  private Object hessianDecode(byte[] data) {
    Hessian2Input input = new Hessian2Input(new ByteArrayInputStream(data));
    input.setSerializerFactory(hessianFactory);
    try {
      Object value = input.readObject();
      input.close();
      return value;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  // ------------------------------------------------------------------ for tests and reports

  /** Encoded sizes in bytes, by codec name, of the benchmark order. */
  public static java.util.Map<String, Integer> encodedSizes() {
    OrderCodecBenchmark b = new OrderCodecBenchmark();
    b.setUp();
    try {
      java.util.Map<String, Integer> sizes = new java.util.LinkedHashMap<>();
      sizes.put("boltgen", b.boltgenEncoded.readableBytes());
      sizes.put("protobufBytes", b.protoBytes.length);
      sizes.put("protobufDirect", b.protoEncoded.readableBytes());
      sizes.put("hessian2", b.hessianBytes.length);
      return sizes;
    } finally {
      b.tearDown();
    }
  }

  /** Runs every variant's round trip once and returns the decoded values as records, by codec name. */
  public static java.util.Map<String, Order> roundTripOnce() throws IOException {
    OrderCodecBenchmark b = new OrderCodecBenchmark();
    b.setUp();
    try {
      java.util.Map<String, Order> out = new java.util.LinkedHashMap<>();
      out.put("boltgen", b.boltgen_roundTrip());
      out.put("protobufBytes", OrderFixtures.fromProto(b.protobufBytes_roundTrip()));
      out.put("protobufDirect", OrderFixtures.fromProto(b.protobufDirect_roundTrip()));
      out.put("hessian2", OrderFixtures.fromHessian((HOrder) b.hessian2_roundTrip()));
      return out;
    } finally {
      b.tearDown();
    }
  }

  /** The boltgen codec's bytes of the benchmark order. */
  public static byte[] boltgenBytes() {
    OrderCodecBenchmark b = new OrderCodecBenchmark();
    b.setUp();
    try {
      byte[] bytes = new byte[b.boltgenEncoded.readableBytes()];
      b.boltgenEncoded.getBytes(0, bytes);
      return bytes;
    } finally {
      b.tearDown();
    }
  }
}
