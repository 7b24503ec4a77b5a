package io.boltgen.micrometer;

import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.MethodType;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.ServerContext;
import io.boltgen.runtime.ServiceDefinition;
import io.boltgen.runtime.codec.Marshaller;
import io.boltgen.runtime.codec.RawBytesMarshaller;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A hand-built service on raw bytes: echo, a handler that throws an unchecked exception, one that refuses
 * with a {@link BoltException}, a slow one that waits for {@link #release}, and one answering with the request
 * header its argument names.
 */
final class TestService {

  static final Marshaller<byte[]> RAW = RawBytesMarshaller.withCodecId(Marshaller.PROTOBUF);

  static final MethodDescriptor<byte[], byte[]> ECHO = method("echo");
  static final MethodDescriptor<byte[], byte[]> FAIL = method("fail");
  static final MethodDescriptor<byte[], byte[]> REFUSE = method("refuse");
  static final MethodDescriptor<byte[], byte[]> SLOW = method("slow");
  static final MethodDescriptor<byte[], byte[]> HEADER = method("header");

  /** SLOW waits for this latch (or 10 s) before echoing. */
  volatile CountDownLatch release = new CountDownLatch(0);

  static MethodDescriptor<byte[], byte[]> method(String name) {
    return MethodDescriptor.newBuilder(RAW, RAW)
        .serviceName("test.Echo")
        .serviceVersion("1.0")
        .methodName(name)
        .protoService("test.Echo")
        .type(MethodType.REQUEST_RESPONSE)
        .timeoutMillis(5_000)
        .build();
  }

  ServiceDefinition definition() {
    return ServiceDefinition.builder("test.Echo", "1.0")
        .method(ECHO, (request, call) -> call.respond(request))
        .method(FAIL, (request, call) -> {
          throw new IllegalStateException("boom: " + string(request));
        })
        .method(REFUSE, (request, call) -> {
          throw new BoltException(ResponseStatus.SERVER_EXCEPTION, "refused: " + string(request));
        })
        .method(SLOW, (request, call) -> {
          release.await(10, TimeUnit.SECONDS);
          call.respond(request);
        })
        .method(HEADER, (request, call) -> call.respond(bytes(String.valueOf(
            ServerContext.current().headers().get(string(request))))))
        .build();
  }

  static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static String string(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }
}
