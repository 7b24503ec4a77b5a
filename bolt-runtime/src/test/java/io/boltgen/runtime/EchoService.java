package io.boltgen.runtime;

import io.boltgen.runtime.codec.Marshaller;
import io.boltgen.runtime.codec.RawBytesMarshaller;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

/**
 * A hand-built test service on raw bytes: echo, a failing method, a slow method, a oneway sink, and
 * amplify, whose answer is as many bytes as its 4-byte request says.
 */
public final class EchoService {

  public static final Marshaller<byte[]> RAW = RawBytesMarshaller.withCodecId(Marshaller.PROTOBUF);

  public static final MethodDescriptor<byte[], byte[]> ECHO = method("echo", 1, MethodType.REQUEST_RESPONSE);
  public static final MethodDescriptor<byte[], byte[]> FAIL = method("fail", 2, MethodType.REQUEST_RESPONSE);
  public static final MethodDescriptor<byte[], byte[]> SLOW = method("slow", 3, MethodType.REQUEST_RESPONSE);
  public static final MethodDescriptor<byte[], byte[]> SINK = method("sink", 4, MethodType.ONEWAY);
  public static final MethodDescriptor<byte[], byte[]> AMPLIFY = method("amplify", 5, MethodType.REQUEST_RESPONSE);

  public final LinkedBlockingQueue<String> sunk = new LinkedBlockingQueue<>();
  public final AtomicInteger echoed = new AtomicInteger();
  public final AtomicInteger slowStarted = new AtomicInteger();
  /** SLOW waits for this latch (or 10 s) before echoing. */
  public volatile CountDownLatch release = new CountDownLatch(0);

  public static MethodDescriptor<byte[], byte[]> method(String name, int code, MethodType type) {
    return method("test.Echo", name, code, type, 5_000);
  }

  /** A raw-bytes method of {@code service} version 1.0, over Bolt and HTTP (route /service/name). */
  public static MethodDescriptor<byte[], byte[]> method(String service, String name, int code, MethodType type,
      int timeoutMillis) {
    return method(service, name, code, type, timeoutMillis, UnaryOperator.identity());
  }

  /** The same, built with {@code extra} too (a protocol module's extensions: its JSON forms, say). */
  public static MethodDescriptor<byte[], byte[]> method(String service, String name, int code, MethodType type,
      int timeoutMillis, UnaryOperator<MethodDescriptor.Builder<byte[], byte[]>> extra) {
    return extra.apply(MethodDescriptor.newBuilder(RAW, RAW)
        .serviceName(service)
        .serviceVersion("1.0")
        .methodName(name)
        .methodCode(code)
        .type(type)
        .timeoutMillis(timeoutMillis)
        .protoService(service))
        .build();
  }

  public ServiceDefinition definition() {
    return definition(UnaryOperator.identity());
  }

  /** The service with each method's descriptor built with {@code extra} too (see {@link #method}). */
  public ServiceDefinition definition(UnaryOperator<MethodDescriptor.Builder<byte[], byte[]>> extra) {
    return ServiceDefinition.builder("test.Echo", "1.0")
        .method(method("test.Echo", "echo", 1, MethodType.REQUEST_RESPONSE, 5_000, extra), (request, call) -> {
          echoed.incrementAndGet();
          call.respond(request);
        })
        .method(method("test.Echo", "fail", 2, MethodType.REQUEST_RESPONSE, 5_000, extra), (request, call) -> {
          throw new IllegalStateException("boom: " + new String(request, StandardCharsets.UTF_8));
        })
        .method(method("test.Echo", "slow", 3, MethodType.REQUEST_RESPONSE, 5_000, extra), (request, call) -> {
          slowStarted.incrementAndGet();
          release.await(10, TimeUnit.SECONDS);
          call.respond(request);
        })
        .method(method("test.Echo", "sink", 4, MethodType.ONEWAY, 5_000, extra),
            (request, call) -> sunk.add(new String(request, StandardCharsets.UTF_8)))
        .method(method("test.Echo", "amplify", 5, MethodType.REQUEST_RESPONSE, 5_000, extra),
            (request, call) -> call.respond(new byte[java.nio.ByteBuffer.wrap(request).getInt()]))
        .build();
  }

  public static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  public static String string(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }
}
