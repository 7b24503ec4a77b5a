package io.boltgen.runtime;

import io.boltgen.runtime.codec.Marshaller;
import io.boltgen.runtime.codec.RawBytesMarshaller;
import io.boltgen.runtime.service.MethodDescriptor;
import io.boltgen.runtime.service.MethodType;
import io.boltgen.runtime.service.ServiceDefinition;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A hand-built test service on raw bytes: echo, a failing method, a slow method, a oneway sink, and
 * amplify, whose answer is as many bytes as its 4-byte request says.
 */
final class EchoService {

  static final Marshaller<byte[]> RAW = RawBytesMarshaller.withCodecId(Marshaller.PROTOBUF);

  static final MethodDescriptor<byte[], byte[]> ECHO = method("echo", 1, MethodType.REQUEST_RESPONSE);
  static final MethodDescriptor<byte[], byte[]> FAIL = method("fail", 2, MethodType.REQUEST_RESPONSE);
  static final MethodDescriptor<byte[], byte[]> SLOW = method("slow", 3, MethodType.REQUEST_RESPONSE);
  static final MethodDescriptor<byte[], byte[]> SINK = method("sink", 4, MethodType.ONEWAY);
  static final MethodDescriptor<byte[], byte[]> AMPLIFY = method("amplify", 5, MethodType.REQUEST_RESPONSE);

  final LinkedBlockingQueue<String> sunk = new LinkedBlockingQueue<>();
  final AtomicInteger echoed = new AtomicInteger();
  final AtomicInteger slowStarted = new AtomicInteger();
  /** SLOW waits for this latch (or 10 s) before echoing. */
  volatile CountDownLatch release = new CountDownLatch(0);

  static MethodDescriptor<byte[], byte[]> method(String name, int code, MethodType type) {
    return MethodDescriptor.newBuilder(RAW, RAW)
        .serviceName("test.Echo")
        .serviceVersion("1.0")
        .methodName(name)
        .code(code)
        .type(type)
        .timeoutMillis(5_000)
        .build();
  }

  ServiceDefinition definition() {
    return ServiceDefinition.builder("test.Echo", "1.0")
        .method(ECHO, (request, call) -> {
          echoed.incrementAndGet();
          call.respond(request);
        })
        .method(FAIL, (request, call) -> {
          throw new IllegalStateException("boom: " + new String(request, StandardCharsets.UTF_8));
        })
        .method(SLOW, (request, call) -> {
          slowStarted.incrementAndGet();
          release.await(10, TimeUnit.SECONDS);
          call.respond(request);
        })
        .method(SINK, (request, call) -> sunk.add(new String(request, StandardCharsets.UTF_8)))
        .method(AMPLIFY, (request, call) -> call.respond(new byte[java.nio.ByteBuffer.wrap(request).getInt()]))
        .build();
  }

  static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static String string(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }
}
