package io.boltgen.runtime.internal;

import static io.boltgen.runtime.EchoService.ECHO;
import static io.boltgen.runtime.EchoService.SLOW;
import static io.boltgen.runtime.EchoService.bytes;
import static io.boltgen.runtime.EchoService.string;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.boltgen.runtime.BoltChannel;
import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.BoltServer;
import io.boltgen.runtime.CallOptions;
import io.boltgen.runtime.EchoService;
import io.boltgen.runtime.internal.server.WorkerPool;
import io.boltgen.testing.Closer;
import io.boltgen.testing.RawFrames;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Work nobody waits for is not done, and slow requests do not starve quick ones. */
class OverloadTest {

  private final Closer closer = new Closer();
  private final EchoService echo = new EchoService();

  @AfterEach
  void stop() throws Exception {
    echo.release.countDown();
    closer.close();
  }

  /** {@code count} SLOW requests, written in one go by a raw client; the caller closes the socket. */
  private static Socket send(int port, int count) throws Exception {
    ByteArrayOutputStream frames = new ByteArrayOutputStream();
    for (int id = 1; id <= count; id++) {
      frames.writeBytes(RawFrames.request(SLOW.wireName(), id, bytes("abandoned " + id), 30_000));
    }
    Socket socket = new Socket("127.0.0.1", port);
    OutputStream out = socket.getOutputStream();
    out.write(frames.toByteArray());
    out.flush();
    return socket;
  }

  @Test
  void requestsOfAConnectionThatClosedAreNotStarted() throws Exception {
    ThreadPoolExecutor single = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(200));
    closer.track(single::shutdownNow);
    echo.release = new CountDownLatch(1);
    BoltServer server = closer.track(BoltServer.builder().bind("127.0.0.1", 0).executor(single)
        .service(echo.definition()).build().start());
    Socket socket = send(server.port(), 50);
    await().atMost(Duration.ofSeconds(10)).until(() -> echo.slowStarted.get() == 1);
    socket.close(); // the caller hangs up while the first request runs and 49 wait for the only thread
    await().atMost(Duration.ofSeconds(10)).until(() -> server.connections().isEmpty()); // the server saw the close
    echo.release.countDown();
    await().atMost(Duration.ofSeconds(10)).until(() -> single.getActiveCount() == 0 && single.getQueue().isEmpty());
    assertThat(echo.slowStarted.get()).as("slow handlers started").isEqualTo(1);
  }

  @Test
  void abandonedSlowRequestsDoNotDelayAQuickCall() throws Exception {
    echo.release = new CountDownLatch(1); // the slow handlers block until the test ends
    BoltServer server = closer.track(BoltServer.builder().bind("127.0.0.1", 0).service(echo.definition()).build().start());
    BoltClient client = closer.track(BoltClient.builder().build());
    BoltChannel channel = client.channel("127.0.0.1:" + server.port());
    for (int i = 0; i < 200; i++) {
      channel.invokeSync(ECHO, bytes("warm-up"), CallOptions.DEFAULT); // connected, compiled
    }
    Socket abandoning = send(server.port(), 100);
    await().atMost(Duration.ofSeconds(10)).until(() -> echo.slowStarted.get() >= 1); // the server has them
    abandoning.close(); // the caller hangs up: whatever has not started never will; what runs blocks on
    long[] millis = new long[5];
    for (int i = 0; i < millis.length; i++) {
      long start = System.nanoTime();
      assertThat(string(channel.invokeSync(ECHO, bytes("quick " + i), CallOptions.DEFAULT))).isEqualTo("quick " + i);
      millis[i] = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }
    Arrays.sort(millis);
    System.out.println("measured: quick calls beside 100 abandoned slow requests, ms: " + Arrays.toString(millis));
    assertThat(millis[millis.length / 2]).as("median quick call, ms, of %s", Arrays.toString(millis)).isLessThan(100);
  }

  @Test
  void slowRequestsInFlightDoNotStarveQuickOnes() throws Exception {
    echo.release = new CountDownLatch(1);
    BoltServer server = closer.track(BoltServer.builder().bind("127.0.0.1", 0).service(echo.definition()).build().start());
    BoltClient client = closer.track(BoltClient.builder().build());
    BoltChannel channel = client.channel("127.0.0.1:" + server.port());
    CallOptions patient = CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(30));
    List<java.util.concurrent.CompletableFuture<byte[]>> slow = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      slow.add(channel.invokeFuture(SLOW, bytes("slow " + i), patient));
    }
    // far more than the 20 core threads: the pool grows instead of queueing them behind each other
    await().atMost(Duration.ofSeconds(10)).until(() -> echo.slowStarted.get() == 100);
    assertThat(string(channel.invokeSync(ECHO, bytes("quick"), CallOptions.DEFAULT.withTimeoutMillis(2_000))))
        .isEqualTo("quick");
    echo.release.countDown();
    for (int i = 0; i < slow.size(); i++) {
      assertThat(string(slow.get(i).get(10, TimeUnit.SECONDS))).isEqualTo("slow " + i);
    }
  }

  @Test
  void theWorkerPoolAddsThreadsBeforeItQueuesAndRefusesOnlyWhenBothAreFull() throws Exception {
    WorkerPool pool = WorkerPool.create("test-worker", 2, 10, 5);
    closer.track(pool::shutdownNow);
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch started = new CountDownLatch(10);
    Runnable blocking = () -> {
      started.countDown();
      try {
        release.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    };
    for (int i = 0; i < 10; i++) {
      pool.execute(blocking);
    }
    assertThat(started.await(10, TimeUnit.SECONDS)).as("ten tasks running at once").isTrue();
    assertThat(pool.getQueue()).isEmpty();
    for (int i = 0; i < 5; i++) {
      pool.execute(blocking); // no thread left to make: these wait
    }
    assertThat(pool.getQueue()).hasSize(5);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> pool.execute(blocking))
        .isInstanceOf(RejectedExecutionException.class);
    release.countDown();
    await().atMost(Duration.ofSeconds(10)).until(() -> pool.getCompletedTaskCount() == 15);
    // idle threads take new work: nothing is queued, no thread is made
    int threads = pool.getPoolSize();
    pool.execute(() -> { });
    await().atMost(Duration.ofSeconds(10)).until(() -> pool.getCompletedTaskCount() == 16);
    assertThat(pool.getPoolSize()).isEqualTo(threads);
  }
}
