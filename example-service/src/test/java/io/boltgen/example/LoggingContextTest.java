package io.boltgen.example;

import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.runtime.BoltChannel;
import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.BoltServer;
import io.boltgen.runtime.CallOptions;
import io.boltgen.runtime.Connection;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.MethodType;
import io.boltgen.runtime.ServiceDefinition;
import io.boltgen.runtime.codec.Marshaller;
import io.boltgen.runtime.codec.RawBytesMarshaller;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

/**
 * With the binding the example ships (logback, which keeps an MDC), a handler's thread carries its call in
 * SLF4J's MDC while the handler runs, and keeps nothing of it afterwards.
 */
class LoggingContextTest {

  private static final Marshaller<byte[]> RAW = RawBytesMarshaller.withCodecId(Marshaller.PROTOBUF);
  private static final MethodDescriptor<byte[], byte[]> WHO = MethodDescriptor.newBuilder(RAW, RAW)
      .serviceName("test.Echo").serviceVersion("1.0").methodName("who").methodCode(1)
      .type(MethodType.REQUEST_RESPONSE).build();

  private final ExecutorService handlers = Executors.newSingleThreadExecutor();
  private BoltServer server;
  private BoltClient client;

  @AfterEach
  void close() {
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.close();
    }
    handlers.shutdownNow();
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static String string(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }

  @Test
  void theHandlersThreadCarriesTheCallInItsMdcWhileTheHandlerRuns() throws Exception {
    server = BoltServer.builder().bind("127.0.0.1", 0).executor(handlers)
        .service(ServiceDefinition.builder("test.Echo", "1.0").method(WHO, (request, call) -> call.respond(bytes(
            MDC.get("bolt.method") + " " + MDC.get("bolt.requestId") + " " + MDC.get("bolt.remote")))).build())
        .build().start();
    client = BoltClient.builder().build();
    BoltChannel channel = client.channel("127.0.0.1:" + server.port());
    String first = string(channel.invokeSync(WHO, bytes(""), CallOptions.DEFAULT));
    String second = string(channel.invokeSync(WHO, bytes(""), CallOptions.DEFAULT));
    Connection connection = client.connections().get(0);
    String remote = String.valueOf(connection.localAddress());
    assertThat(first).isEqualTo("test.Echo:1.0/who 1 " + remote);
    assertThat(second).isEqualTo("test.Echo:1.0/who 2 " + remote);
    assertThat(handlers.submit(() -> MDC.get("bolt.method")).get(5, TimeUnit.SECONDS))
        .as("nothing left on the thread once the handler returned").isNull();
  }
}
