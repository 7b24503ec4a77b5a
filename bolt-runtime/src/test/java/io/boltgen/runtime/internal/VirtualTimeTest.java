package io.boltgen.runtime.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.CallOptions;
import io.boltgen.runtime.EchoService;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.MethodType;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.ServiceDefinition;
import io.boltgen.runtime.call.ServerCalls;
import io.boltgen.testing.RawFrames;
import java.io.ByteArrayOutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Heartbeats, idle close, reconnect backoff, call timeouts and the stall watchdog, each driven by a
 * {@link FakeTimer} whose clock is also the channel's and the endpoint's: seconds of protocol time pass in
 * microseconds of wall time, and every boundary is checked to the millisecond.
 */
class VirtualTimeTest {

  /** Starts a future-style echo of {@code text} with a 750 ms timeout. */
  private static CompletableFuture<byte[]> echo(VirtualTime client, String text) {
    return client.connection.channel().invokeFuture(EchoService.ECHO, EchoService.bytes(text),
        CallOptions.DEFAULT.withTimeoutMillis(750));
  }

  /** The successful answer {@code text} to {@code request}. */
  private static byte[] answer(byte[] request, String text) {
    return RawFrames.response(RawFrames.PROTOCOL_V2, (byte) 2, RawFrames.SWITCH_CRC, RawFrames.requestId(request),
        RawFrames.CODEC_PROTOBUF, 0, "", Map.of(), EchoService.bytes(text));
  }

  private static byte[] heartbeatAck(byte[] heartbeat, int status) {
    return RawFrames.frame(RawFrames.PROTOCOL_V2, (byte) 2, (byte) 0, RawFrames.TYPE_RESPONSE,
        RawFrames.CMD_HEARTBEAT, (byte) 1, RawFrames.requestId(heartbeat), RawFrames.CODEC_HESSIAN2, status,
        new byte[0], new byte[0], new byte[0]);
  }

  @Test
  void aHeartbeatGoesOutAfterTheIdleIntervalAndAnAckedOneKeepsTheConnection() {
    try (VirtualTime client = VirtualTime.client(1000, 300, 2)) {
      client.advance(999);
      assertThat(client.sent()).as("nothing before the interval").isNull();
      for (int round = 0; round < 5; round++) {
        client.advance(1);
        byte[] heartbeat = client.sent();
        assertThat(heartbeat).as("heartbeat %d", round).isNotNull();
        assertThat(RawFrames.cmdCode(heartbeat)).isEqualTo(RawFrames.CMD_HEARTBEAT);
        client.advance(100);
        client.receive(heartbeatAck(heartbeat, 0));
        client.advance(999); // the ack was a read: the next heartbeat is due 1000 ms after it
        assertThat(client.sent()).isNull();
        assertThat(client.channel.isOpen()).isTrue();
      }
    }
  }

  @Test
  void unansweredHeartbeatsCloseTheConnectionAfterMaxMissesAndNeverOverlap() {
    try (VirtualTime client = VirtualTime.client(1000, 300, 2)) {
      client.advance(1000);
      assertThat(client.sent()).isNotNull();
      client.advance(299);
      assertThat(client.channel.isOpen()).isTrue();
      assertThat(client.sent()).as("never two heartbeats outstanding").isNull();
      client.advance(1); // first miss
      assertThat(client.channel.isOpen()).isTrue();
      client.advance(1000); // idle again since the last read: a second heartbeat
      assertThat(client.sent()).isNotNull();
      client.advance(299);
      assertThat(client.channel.isOpen()).isTrue();
      client.advance(1); // second miss in a row
      assertThat(client.channel.isOpen()).isFalse();
    }
  }

  @Test
  void anAckWithAFailureStatusCountsAsAMiss() {
    try (VirtualTime client = VirtualTime.client(1000, 300, 1)) {
      client.advance(1000);
      byte[] heartbeat = client.sent();
      client.receive(heartbeatAck(heartbeat, ResponseStatus.SERVER_EXCEPTION.code()));
      assertThat(client.channel.isOpen()).isFalse();
    }
  }

  @Test
  void aServerClosesAConnectionIdleForItsIdleTimeoutAndAReadRestartsTheCount() {
    try (VirtualTime server = VirtualTime.server(5000, Runnable::run, new EchoService().definition())) {
      server.advance(4000);
      server.receive(RawFrames.heartbeat(RawFrames.PROTOCOL_V2, (byte) 2, 1));
      assertThat(server.sent()).as("the heartbeat's ack").isNotNull();
      server.advance(4999);
      assertThat(server.channel.isOpen()).isTrue();
      server.advance(1);
      assertThat(server.channel.isOpen()).isFalse();
    }
  }

  @Test
  void aFutureCallTimesOutAtItsDeadlineAndNotBefore() throws Exception {
    try (VirtualTime client = VirtualTime.client(0, 1, 1)) {
      CompletableFuture<byte[]> call = echo(client, "hi");
      byte[] request = client.sent();
      assertThat(RawFrames.cmdCode(request)).isEqualTo(RawFrames.CMD_REQUEST);
      assertThat(ByteBuffer.wrap(request).getInt(12)).as("the timeout field").isEqualTo(750);
      client.advance(749);
      assertThat(call).isNotDone();
      client.advance(1);
      assertThat(call).isCompletedExceptionally();
      BoltException e = cause(call);
      assertThat(e.status()).isEqualTo(ResponseStatus.TIMEOUT);
      // a late answer is dropped without harm
      client.receive(answer(request, "hi"));
      assertThat(client.channel.isOpen()).isTrue();
    }
  }

  @Test
  void callsWithShorterAndLongerTimeoutsEachTimeOutAtTheirOwnDeadline() throws Exception {
    try (VirtualTime client = VirtualTime.client(0, 1, 1)) {
      CompletableFuture<byte[]> slow = echo(client, "slow"); // 750 ms
      client.advance(10);
      CompletableFuture<byte[]> quick = client.connection.channel().invokeFuture(EchoService.ECHO,
          EchoService.bytes("quick"), CallOptions.DEFAULT.withTimeoutMillis(100));
      CompletableFuture<byte[]> later = echo(client, "later"); // 750 ms from 10
      client.advance(99);
      assertThat(quick).isNotDone();
      client.advance(1);
      assertThat(cause(quick).status()).isEqualTo(ResponseStatus.TIMEOUT);
      assertThat(slow).isNotDone();
      client.advance(640);
      assertThat(slow).isCompletedExceptionally();
      assertThat(later).as("its deadline is 10 ms later").isNotDone();
      client.advance(10);
      assertThat(cause(later).status()).isEqualTo(ResponseStatus.TIMEOUT);
      assertThat(client.connection.pendingSnapshot()).isEmpty();
      assertThat(client.time.pending()).as("nothing left to time").isZero();
    }
  }

  @Test
  void aCallAnsweredInTimeCancelsItsTimeout() throws Exception {
    try (VirtualTime client = VirtualTime.client(0, 1, 1)) {
      CompletableFuture<byte[]> call = echo(client, "hi");
      byte[] request = client.sent();
      client.advance(500);
      client.receive(answer(request, "yo"));
      assertThat(EchoService.string(call.get(0, TimeUnit.SECONDS))).isEqualTo("yo");
      // the connection's one deadline sweep stays armed until the deadline it was armed for, then finds no
      // call waiting and leaves the timer empty
      assertThat(client.time.pending()).as("the connection's sweep").isEqualTo(1);
      client.advance(250);
      assertThat(call).isCompletedWithValueMatching(v -> EchoService.string(v).equals("yo"));
      assertThat(client.time.pending()).as("nothing left to time").isZero();
    }
  }

  @Test
  void theCallersFutureCannotCompleteTheCallAndCancellingItAbandonsTheCall() throws Exception {
    try (VirtualTime client = VirtualTime.client(0, 1, 1)) {
      CompletableFuture<byte[]> first = echo(client, "a");
      byte[] request = client.sent();
      assertThat(first.complete(EchoService.bytes("mine"))).isTrue(); // the caller's own view
      assertThat(client.connection.pendingSnapshot()).as("the call still waits for its answer").hasSize(1);
      client.receive(answer(request, "a"));
      assertThat(client.connection.pendingSnapshot()).isEmpty();

      CompletableFuture<byte[]> second = echo(client, "b");
      assertThat(second.cancel(false)).isTrue();
      assertThat(client.connection.pendingSnapshot()).as("abandoned at once").isEmpty();
      client.advance(750);
      assertThat(client.time.pending()).as("the sweep found nothing to time out and stopped").isZero();
    }
  }

  @Test
  void reconnectAttemptsBackOffFromMinDoublingUpToMax() {
    FakeTimer time = new FakeTimer();
    CallEnvironment env = new CallEnvironment(time, time.ticker(), Runnable::run, "client");
    List<Long> attempts = new ArrayList<>();
    Connector failing = (address, slot) -> {
      attempts.add(TimeUnit.NANOSECONDS.toMillis(time.nanoTime()));
      return CompletableFuture.failedFuture(new ConnectException("refused"));
    };
    ConnectionPool pool = new ConnectionPool(new InetSocketAddress("127.0.0.1", 9), 1, failing,
        new ConnectionEvents(List.of(), "test"), env, true, 100, 1000);
    try {
      assertThat(pool.connect()).isCompletedExceptionally();
      // backing off: a call fails at once with the last failure instead of trying again
      assertThat(pool.connect()).isCompletedExceptionally();
      assertThat(attempts).hasSize(1);
      time.advance(10, TimeUnit.SECONDS);
      assertThat(attempts.size()).isGreaterThanOrEqualTo(10);
      long[] expected = {100, 200, 400, 800, 1000, 1000, 1000};
      for (int i = 0; i < expected.length; i++) {
        long gap = attempts.get(i + 1) - attempts.get(i);
        // each wait is up to 20% shorter at random, never longer
        assertThat(gap).as("wait before attempt %d", i + 2).isBetween(expected[i] * 8 / 10, expected[i]);
      }
    } finally {
      pool.close();
    }
  }

  @Test
  void aStalledHandlerInASharedTaskHandsTheRestOutWhenTheWatchdogFires() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger started = new AtomicInteger();
    MethodDescriptor<byte[], byte[]> stall = EchoService.method("stall", 9, MethodType.REQUEST_RESPONSE);
    ServiceDefinition service = ServiceDefinition.builder("test.Echo", "1.0")
        .method(stall, (request, call) -> {
          started.incrementAndGet();
          release.await(10, TimeUnit.SECONDS); // never answers: the test's channel stays on its own thread
        })
        .build();
    ExecutorService executor = Executors.newFixedThreadPool(3);
    try (VirtualTime server = VirtualTime.server(0, executor, service)) {
      ByteArrayOutputStream read = new ByteArrayOutputStream();
      for (int id = 1; id <= 3; id++) {
        read.writeBytes(RawFrames.request(stall.wireName(), id, new byte[] {1}, 60_000));
      }
      server.receive(read.toByteArray()); // one read: one shared task for the three
      await().atMost(Duration.ofSeconds(10)).until(() -> started.get() == 1 && server.time.pending() == 1);
      assertThat(started).as("the others wait behind the stalled one").hasValue(1);
      server.time.advance(ServerCalls.Dispatch.STALL_MILLIS - 1, TimeUnit.MILLISECONDS);
      assertThat(started).hasValue(1);
      server.time.advance(1, TimeUnit.MILLISECONDS); // the watchdog fires
      await().atMost(Duration.ofSeconds(10)).until(() -> started.get() == 3);
    } finally {
      release.countDown();
      executor.shutdown();
      assertThat(executor.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }
  }

  private static BoltException cause(CompletableFuture<?> call) throws InterruptedException {
    try {
      call.get(0, TimeUnit.SECONDS);
      throw new AssertionError("completed normally");
    } catch (ExecutionException e) {
      return (BoltException) e.getCause();
    } catch (TimeoutException e) {
      throw new AssertionError("not done", e);
    }
  }
}
