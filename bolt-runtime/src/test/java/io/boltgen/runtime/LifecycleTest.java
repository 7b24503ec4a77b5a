package io.boltgen.runtime;

import static io.boltgen.runtime.EchoService.ECHO;
import static io.boltgen.runtime.EchoService.bytes;
import static io.boltgen.runtime.EchoService.string;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.boltgen.testing.Closer;
import io.boltgen.testing.RawFrames;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Closing, building and shutting down race-free; the runtime's own threads never run user code by accident. */
class LifecycleTest {

  private final Closer closer = new Closer();
  private final EchoService echo = new EchoService();

  @AfterEach
  void stop() throws Exception {
    echo.release.countDown();
    closer.close();
  }

  @Test
  void concurrentClosesOfOneClientReleaseTheSharedThreadsOnce() throws Exception {
    BoltServer server = closer.track(BoltServer.builder().bind("127.0.0.1", 0).service(echo.definition()).build().start());
    BoltClient survivor = closer.track(BoltClient.builder().build());
    BoltChannel surviving = survivor.channel("127.0.0.1:" + server.port());
    ExecutorService closers = Executors.newFixedThreadPool(2);
    closer.track(closers::shutdownNow);
    for (int round = 0; round < 100; round++) { // a race: many rounds make it likely to show
      BoltClient doomed = BoltClient.builder().build();
      doomed.channel("127.0.0.1:" + server.port()).invokeSync(ECHO, bytes("x"), CallOptions.DEFAULT);
      CyclicBarrier together = new CyclicBarrier(2);
      List<Future<?>> closes = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        closes.add(closers.submit(() -> {
          together.await();
          doomed.close();
          return null;
        }));
      }
      for (Future<?> close : closes) {
        close.get(30, TimeUnit.SECONDS);
      }
      assertThat(string(surviving.invokeSync(ECHO, bytes("round " + round), CallOptions.DEFAULT)))
          .isEqualTo("round " + round);
    }
  }

  @Test
  void aBuilderChangedAfterBuildChangesNothingAlreadyBuilt() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      BoltServer.Builder builder = BoltServer.builder().bind("127.0.0.1", 0).service(echo.definition());
      BoltServer server = closer.track(builder.build());
      builder.bind("127.0.0.1", taken.getLocalPort()).maxFrameLength(100); // too late for the server above
      server.start();
      assertThat(server.port()).isNotEqualTo(taken.getLocalPort());

      BoltClient.Builder clientBuilder = BoltClient.builder();
      BoltClient client = closer.track(clientBuilder.build());
      clientBuilder.peerMaxFrameLength(100);
      byte[] large = new byte[10_000];
      assertThat(client.channel("127.0.0.1:" + server.port()).invokeSync(ECHO, large, CallOptions.DEFAULT))
          .hasSize(10_000);
    }
  }

  @Test
  @SuppressWarnings("FutureReturnValueIgnored") // the callback hands its own failure to closedOn
  void aClientClosedFromACallbackOnTheTimerThreadClosesCompletely() throws Exception {
    try (ServerSocket deaf = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      BoltClient client = BoltClient.builder().build();
      BoltChannel channel = client.channel("127.0.0.1:" + deaf.getLocalPort());
      CompletableFuture<String> closedOn = new CompletableFuture<>();
      channel.invokeFuture(ECHO, bytes("never answered"), CallOptions.DEFAULT.withTimeoutMillis(100))
          .whenComplete((v, e) -> {
            try {
              client.close(); // runs on the thread that timed the call out
              closedOn.complete(Thread.currentThread().getName());
            } catch (Throwable t) {
              closedOn.completeExceptionally(t);
            }
          });
      closer.track(deaf.accept());
      assertThat(closedOn.get(10, TimeUnit.SECONDS)).startsWith("boltgen-timer");
      await().atMost(Duration.ofSeconds(15)).until(() -> client.connections().isEmpty());
      assertThatCallsFailAsClosed(channel);
    }
  }

  private static void assertThatCallsFailAsClosed(BoltChannel channel) {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> channel.invokeSync(ECHO, bytes("x"), CallOptions.DEFAULT))
        .isInstanceOfSatisfying(BoltException.class,
            e -> assertThat(e.status()).isEqualTo(ResponseStatus.CLIENT_SEND_ERROR));
  }

  @Test
  void theStallWatchdogNeverRunsAHandlerOnTheTimerThread() throws Exception {
    // one worker, one queue slot, and the caller runs what does not fit: the watchdog must not be that caller
    ThreadPoolExecutor tiny = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(1),
        new ThreadPoolExecutor.CallerRunsPolicy());
    closer.track(tiny::shutdownNow);
    ConcurrentLinkedQueue<String> handlerThreads = new ConcurrentLinkedQueue<>();
    CountDownLatch release = new CountDownLatch(1);
    MethodDescriptor<byte[], byte[]> block = EchoService.method("block", 7, MethodType.REQUEST_RESPONSE);
    BoltServer server = closer.track(BoltServer.builder().bind("127.0.0.1", 0).executor(tiny)
        .service(ServiceDefinition.builder("test.Echo", "1.0")
            .method(block, (request, call) -> {
              handlerThreads.add(Thread.currentThread().getName());
              release.await(10, TimeUnit.SECONDS);
              call.respond(request);
            }).build())
        .build().start());
    ByteArrayOutputStream burst = new ByteArrayOutputStream();
    for (int id = 1; id <= 3; id++) {
      burst.writeBytes(RawFrames.request(block.wireName(), id, bytes("b" + id), 30_000));
    }
    try (Socket socket = new Socket("127.0.0.1", server.port())) {
      OutputStream out = socket.getOutputStream();
      out.write(burst.toByteArray()); // one read: one shared task, whose first handler stalls
      out.flush();
      socket.setSoTimeout(10_000);
      InputStream in = socket.getInputStream();
      byte[] first = RawFrames.read(in); // the one that did not fit: refused at once, not run on the timer
      assertThat(RawFrames.requestId(first)).isEqualTo(3);
      assertThat(RawFrames.status(first)).isEqualTo(ResponseStatus.SERVER_THREADPOOL_BUSY.code());
      release.countDown();
      assertThat(RawFrames.status(RawFrames.read(in))).isZero();
      assertThat(RawFrames.status(RawFrames.read(in))).isZero();
    }
    assertThat(handlerThreads).hasSize(2).noneMatch(name -> name.startsWith("boltgen-timer"));
  }

  @Test
  void afterTheServerComesBackCallsSucceedWithinASecond() throws Exception {
    BoltServer server = BoltServer.builder().bind("127.0.0.1", 0).service(echo.definition()).build().start();
    int port = server.port();
    BoltClient client = closer.track(BoltClient.builder().build());
    BoltChannel channel = client.channel("127.0.0.1:" + port);
    assertThat(string(channel.invokeSync(ECHO, bytes("before"), CallOptions.DEFAULT))).isEqualTo("before");
    server.close();
    // keep calling while it is down, so that the pool backs off as far as it goes
    long downSince = System.nanoTime();
    await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20)).until(() -> {
      try {
        channel.invokeSync(ECHO, bytes("down"), CallOptions.DEFAULT);
      } catch (BoltException e) {
        // expected while it is down
      }
      return System.nanoTime() - downSince > TimeUnit.SECONDS.toNanos(3);
    });
    BoltServer restarted = closer.track(BoltServer.builder().bind("127.0.0.1", port).service(echo.definition()).build().start());
    long back = System.nanoTime();
    await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10)).ignoreExceptions().untilAsserted(() ->
        assertThat(string(channel.invokeSync(ECHO, bytes("after"), CallOptions.DEFAULT))).isEqualTo("after"));
    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - back);
    System.out.printf("measured: %d ms from the server's restart to the first successful call%n", millis);
    assertThat(millis).as("from restart to the first successful call, ms").isLessThan(1_500);
    assertThat(restarted.connections()).hasSize(1);
  }
}
