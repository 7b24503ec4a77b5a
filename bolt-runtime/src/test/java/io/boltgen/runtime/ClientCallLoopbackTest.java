package io.boltgen.runtime;

import static io.boltgen.runtime.EchoService.ECHO;
import static io.boltgen.runtime.EchoService.FAIL;
import static io.boltgen.runtime.EchoService.SLOW;
import static io.boltgen.runtime.EchoService.bytes;
import static io.boltgen.runtime.EchoService.string;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A caller driving its own call ({@link BoltChannel#newCall}) against a real server on loopback, through a
 * connection pool and through a cluster, the same call the four styles drive: the answer once asked for, on the
 * callback executor; a handler's failure as the close; the caller's cancel while the handler still runs; and
 * the interceptors see each of them.
 */
class ClientCallLoopbackTest {

  private final EchoService echo = new EchoService();
  private BoltServer server;
  private ExecutorService callbacks;

  @BeforeEach
  void start() {
    server = BoltServer.builder().bind("127.0.0.1", 0).service(echo.definition()).build().start();
    callbacks = Executors.newSingleThreadExecutor(r -> new Thread(r, "test-callbacks"));
  }

  @AfterEach
  void stop() throws InterruptedException {
    echo.release.countDown();
    server.close();
    callbacks.shutdown();
    assertThat(callbacks.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
  }

  /** What a listener was told: each event with the thread it ran on. */
  private static final class Told implements ClientCall.Listener<byte[]> {
    final LinkedBlockingQueue<String> events = new LinkedBlockingQueue<>();
    volatile Throwable error;

    @Override
    public void onMessage(byte[] message) {
      events.add("message " + string(message) + " on " + Thread.currentThread().getName());
    }

    @Override
    public void onClose(Throwable failure, Map<String, String> trailers) {
      error = failure;
      events.add((failure == null ? "closed" : "failed") + " on " + Thread.currentThread().getName());
    }

    String next() throws InterruptedException {
      String event = events.poll(10, TimeUnit.SECONDS);
      assertThat(event).as("an event within 10 s").isNotNull();
      return event;
    }
  }

  private static ClientCall<byte[], byte[]> send(BoltChannel channel, MethodDescriptor<byte[], byte[]> method,
      CallOptions options, Told listener, String text) {
    ClientCall<byte[], byte[]> call = channel.newCall(method, options);
    call.start(listener);
    call.sendMessage(bytes(text));
    call.halfClose();
    return call;
  }

  @Test
  void aCallerDrivenCallIsAnsweredOnItsCallbackExecutorThroughAPoolAndACluster() throws Exception {
    try (BoltClient client = BoltClient.builder().build()) {
      CallOptions options = CallOptions.DEFAULT.withCallbackExecutor(callbacks);
      for (BoltChannel channel : new BoltChannel[] {client.channel("127.0.0.1:" + server.port()),
          client.channel("static:///127.0.0.1:" + server.port())}) {
        Told told = new Told();
        send(channel, ECHO, options, told, "hello").request(1);
        assertThat(told.next()).isEqualTo("message hello on test-callbacks");
        assertThat(told.next()).isEqualTo("closed on test-callbacks");
      }
      assertThat(echo.echoed).hasValue(2);
    }
  }

  @Test
  void aHandlersFailureClosesTheCallWithoutAnyDemand() throws Exception {
    try (BoltClient client = BoltClient.builder().build()) {
      Told told = new Told();
      send(client.channel("127.0.0.1:" + server.port()), FAIL, CallOptions.DEFAULT, told, "x");
      assertThat(told.next()).startsWith("failed on ");
      assertThat(told.error).isInstanceOf(BoltException.class).hasMessageContaining("boom: x");
    }
  }

  @Test
  void theCallerCancelsWhileTheHandlerRunsAndTheInterceptorIsToldOnce() throws Exception {
    AtomicInteger outcomes = new AtomicInteger();
    LinkedBlockingQueue<ResponseStatus> statuses = new LinkedBlockingQueue<>();
    ClientInterceptor counting = call -> (status, error, elapsedNanos) -> {
      outcomes.incrementAndGet();
      statuses.add(status);
    };
    echo.release = new CountDownLatch(1);
    try (BoltClient client = BoltClient.builder().clientInterceptor(counting).build()) {
      BoltChannel channel = client.channel("127.0.0.1:" + server.port());
      Told cancelled = new Told();
      ClientCall<byte[], byte[]> call = send(channel, SLOW, CallOptions.DEFAULT, cancelled, "wait");
      call.request(1);
      await().atMost(Duration.ofSeconds(10)).until(() -> echo.slowStarted.get() == 1);
      call.cancel("the user left", null);
      assertThat(cancelled.next()).startsWith("failed on ");
      assertThat(cancelled.error).isInstanceOf(CancellationException.class).hasMessage("the user left");
      echo.release.countDown(); // the handler answers now: the answer is dropped

      Told next = new Told();
      send(channel, ECHO, CallOptions.DEFAULT, next, "after").request(1);
      assertThat(next.next()).startsWith("message after on ");
      assertThat(next.next()).startsWith("closed on ");
      assertThat(cancelled.events).as("the cancelled call was told nothing more").isEmpty();
      assertThat(statuses.poll(10, TimeUnit.SECONDS)).as("the cancelled call").isNotEqualTo(ResponseStatus.SUCCESS)
          .isNotNull();
      assertThat(statuses.poll(10, TimeUnit.SECONDS)).isEqualTo(ResponseStatus.SUCCESS);
      assertThat(outcomes).hasValue(2);
    }
  }
}
