package io.boltgen.micrometer;

import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.MethodType;
import io.boltgen.runtime.Publishers;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.ServerContext;
import io.boltgen.runtime.ServiceDefinition;
import io.boltgen.runtime.codec.Marshaller;
import io.boltgen.runtime.codec.RawBytesMarshaller;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;

/**
 * A hand-built service on raw bytes: echo, a handler that throws an unchecked exception, one that refuses
 * with a {@link BoltException}, a slow one that waits for {@link #release}, one answering with the request
 * header its argument names, and a stream each way.
 */
final class TestService {

  static final Marshaller<byte[]> RAW = RawBytesMarshaller.withCodecId(Marshaller.PROTOBUF);

  static final MethodDescriptor<byte[], byte[]> ECHO = method("echo");
  static final MethodDescriptor<byte[], byte[]> FAIL = method("fail");
  static final MethodDescriptor<byte[], byte[]> REFUSE = method("refuse");
  static final MethodDescriptor<byte[], byte[]> SLOW = method("slow");
  static final MethodDescriptor<byte[], byte[]> HEADER = method("header");
  /** Answers the request's bytes one at a time, a stream of as many messages. */
  static final MethodDescriptor<byte[], byte[]> SPELL = method("spell", MethodType.SERVER_STREAMING);
  /** Answers how many messages the caller streamed. */
  static final MethodDescriptor<byte[], byte[]> COUNT = method("count", MethodType.CLIENT_STREAMING);

  /** SLOW waits for this latch (or 10 s) before echoing. */
  volatile CountDownLatch release = new CountDownLatch(0);

  static MethodDescriptor<byte[], byte[]> method(String name) {
    return method(name, MethodType.REQUEST_RESPONSE);
  }

  static MethodDescriptor<byte[], byte[]> method(String name, MethodType type) {
    return MethodDescriptor.newBuilder(RAW, RAW)
        .serviceName("test.Echo")
        .serviceVersion("1.0")
        .methodName(name)
        .protoService("test.Echo")
        .type(type)
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
        .method(SPELL, (request, call) -> {
          List<byte[]> letters = new ArrayList<>();
          for (byte b : request) {
            letters.add(new byte[] {b});
          }
          call.respondStream(Publishers.of(letters));
        })
        .streamingMethod(COUNT, (messages, call) -> {
          CompletableFuture<byte[]> counted = new CompletableFuture<>();
          messages.subscribe(new Flow.Subscriber<byte[]>() {
            private int count;

            @Override
            public void onSubscribe(Flow.Subscription s) {
              s.request(Long.MAX_VALUE);
            }

            @Override
            public void onNext(byte[] message) {
              count++;
            }

            @Override
            public void onError(Throwable error) {
              counted.completeExceptionally(error);
            }

            @Override
            public void onComplete() {
              counted.complete(bytes(Integer.toString(count)));
            }
          });
          call.respondWith(counted);
        })
        .build();
  }

  static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static String string(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }
}
