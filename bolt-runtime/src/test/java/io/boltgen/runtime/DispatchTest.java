package io.boltgen.runtime;

import static io.boltgen.runtime.EchoService.ECHO;
import static io.boltgen.runtime.EchoService.bytes;
import static io.boltgen.runtime.EchoService.string;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Where handlers run, and what they see of the call. */
class DispatchTest {

  private static ServiceDefinition reportingService() {
    return ServiceDefinition.builder("test.Echo", "1.0")
        .method(ECHO, (request, call) -> {
          ServerContext context = ServerContext.current();
          call.respond(bytes(Thread.currentThread().getName() + "|" + context.headers() + "|"
              + context.method().wireName() + "|" + (context.remainingMillis() > 0) + "|" + context.clientTimeoutMillis()));
        })
        .build();
  }

  @Test
  void handlersRunOnTheServerExecutorAndSeeTheirCall() {
    try (BoltServer server = BoltServer.builder().bind("127.0.0.1", 0).service(reportingService()).build().start();
        BoltClient client = BoltClient.builder().build()) {
      String seen = string(client.channel(server.localAddress()).invokeSync(ECHO, bytes("x"),
          CallOptions.DEFAULT.withHeader("tenant", "acme").withTimeout(Duration.ofSeconds(7))));
      String[] parts = seen.split("\\|");
      assertThat(parts[0]).startsWith("boltgen-worker");
      assertThat(parts[1]).isEqualTo("{tenant=acme}");
      assertThat(parts[2]).isEqualTo("test.Echo:1.0/echo");
      assertThat(parts[3]).isEqualTo("true");
      assertThat(Integer.parseInt(parts[4])).isBetween(6_000, 7_000);
    }
  }

  @Test
  void aDirectExecutorRunsHandlersOnTheIoThread() {
    try (BoltServer server = BoltServer.builder().bind("127.0.0.1", 0)
            .service(reportingService(), Runnable::run).build().start();
        BoltClient client = BoltClient.builder().build()) {
      String seen = string(client.channel(server.localAddress()).invokeSync(ECHO, bytes("x"), CallOptions.DEFAULT));
      assertThat(seen).startsWith("boltgen-io");
    }
  }

  @Test
  void aSelectorChoosesTheExecutorPerRequestFromItsHeaders() {
    ExecutorService vip = Executors.newSingleThreadExecutor(r -> new Thread(r, "vip-lane"));
    try (BoltServer server = BoltServer.builder().bind("127.0.0.1", 0).service(reportingService())
            .executorSelector((method, headers) -> "gold".equals(headers.get("tier")) ? vip : null)
            .build().start();
        BoltClient client = BoltClient.builder().build()) {
      BoltChannel channel = client.channel(server.localAddress());
      assertThat(string(channel.invokeSync(ECHO, bytes("x"), CallOptions.DEFAULT.withHeader("tier", "gold"))))
          .startsWith("vip-lane|{tier=gold}");
      assertThat(string(channel.invokeSync(ECHO, bytes("x"), CallOptions.DEFAULT.withHeader("tier", "tin"))))
          .startsWith("boltgen-worker");
    } finally {
      vip.shutdownNow();
    }
  }

  @Test
  void aBurstToAHandlerThatBlocksStillRunsInParallel() throws Exception {
    // the burst arrives in one read, so it starts as one shared task; the stalled first handler must not
    // hold the others back: the watchdog hands them out to other threads
    EchoService echo = new EchoService();
    echo.release = new CountDownLatch(1);
    try (BoltServer server = BoltServer.builder().bind("127.0.0.1", 0).service(echo.definition()).build().start();
        BoltClient client = BoltClient.builder().build()) {
      BoltChannel channel = client.channel(server.localAddress());
      channel.invokeSync(ECHO, bytes("connect first"), CallOptions.DEFAULT);
      List<CompletableFuture<byte[]>> calls = new ArrayList<>();
      for (int i = 0; i < 16; i++) {
        calls.add(channel.invokeFuture(EchoService.SLOW, bytes("slow " + i), CallOptions.DEFAULT));
      }
      await().atMost(Duration.ofSeconds(10)).until(() -> echo.slowStarted.get() == 16);
      echo.release.countDown();
      for (int i = 0; i < calls.size(); i++) {
        assertThat(string(calls.get(i).get(10, TimeUnit.SECONDS))).isEqualTo("slow " + i);
      }
    }
  }

  @Test
  void serverContextOutsideAHandlerIsAnError() {
    org.assertj.core.api.Assertions.assertThatThrownBy(ServerContext::current)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("outside");
  }
}
