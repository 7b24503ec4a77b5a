package io.boltgen.runtime;

import static io.boltgen.runtime.EchoService.bytes;
import static io.boltgen.runtime.EchoService.string;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.boltgen.testing.TestCertificates;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A boltgen client and server stream over Bolt (boltgen's extension of the wire), plain and over TLS: every
 * message in order and the end after them, failures mid-stream, demand bounded end to end by the caller's
 * reading, cancellation by the caller, the caller's deadline over the whole stream, the connection's limit of
 * open streams; and a caller that asks no stream (a SOFABolt one) is refused a streaming method.
 */
@ParameterizedClass(name = "tls={0}")
@ValueSource(booleans = {false, true})
class BoltStreamingTest {

  private static final Duration BOUND = Duration.ofSeconds(10);

  @TempDir
  static Path certificatesDir;

  private static TestCertificates certs;

  @Parameter
  boolean tls;

  private final Numbers numbers = new Numbers();
  private final EchoService echo = new EchoService();
  // what the server's interceptor was told of each call's end
  private final List<String> ends = new CopyOnWriteArrayList<>();
  private BoltServer server;
  private BoltClient client;
  private BoltChannel channel;

  @BeforeAll
  static void makeCertificates() throws Exception {
    certs = TestCertificates.create(certificatesDir);
  }

  @BeforeEach
  void start() {
    BoltServer.Builder served = BoltServer.builder().bind("127.0.0.1", 0).service(numbers.definition())
        .service(echo.definition())
        .serverInterceptor(call -> (status, error, elapsedNanos) ->
            ends.add(call.method().methodName() + " " + status));
    BoltClient.Builder calling = BoltClient.builder();
    if (tls) {
      served.tls(Tls.builder().keyPair(certs.server().certificateChainPem(), certs.server().privateKeyPem()).build());
      calling.tls(Tls.builder().trust(certs.caPem()).build());
    }
    server = served.build().start();
    client = calling.build();
    channel = client.channel("localhost:" + server.port());
  }

  @AfterEach
  void stop() throws InterruptedException {
    client.close();
    server.close();
    numbers.close();
  }

  /** A subscriber that records what it is told, and asks for {@code demand} at its subscription. */
  private static final class Reader implements Flow.Subscriber<byte[]> {
    final List<byte[]> received = new CopyOnWriteArrayList<>();
    final CompletableFuture<Throwable> end = new CompletableFuture<>();
    final long demand;
    volatile Flow.Subscription subscription;

    Reader(long demand) {
      this.demand = demand;
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
      subscription = s;
      s.request(demand);
    }

    @Override
    public void onNext(byte[] item) {
      received.add(item);
    }

    @Override
    public void onError(Throwable error) {
      end.complete(error);
    }

    @Override
    public void onComplete() {
      end.complete(null);
    }

    Throwable awaitEnd() throws Exception {
      return end.get(BOUND.toMillis(), TimeUnit.MILLISECONDS);
    }

    List<Integer> indexes() {
      List<Integer> got = new ArrayList<>();
      for (byte[] m : received) {
        got.add(Numbers.index(m));
      }
      return got;
    }
  }

  private Reader stream(MethodDescriptor<byte[], byte[]> method, byte[] request, long demand, CallOptions options) {
    Reader reader = new Reader(demand);
    channel.invokeStream(method, request, options).subscribe(reader);
    return reader;
  }

  private static List<Integer> upTo(int count) {
    List<Integer> expected = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      expected.add(i);
    }
    return expected;
  }

  @Test
  void everyMessageArrivesInOrderThenTheStreamEnds() throws Exception {
    Reader reader = stream(Numbers.COUNT, Numbers.request(1000, 100), Long.MAX_VALUE, CallOptions.DEFAULT);
    assertThat(reader.awaitEnd()).isNull();
    assertThat(reader.indexes()).isEqualTo(upTo(1000));
    assertThat(reader.received).allSatisfy(m -> assertThat(m).hasSize(100));
    // the publisher was never asked for more than 16 messages ahead of what it sent
    assertThat(numbers.last.mostOutstanding.get()).isBetween(1L, 16L);
    await().atMost(BOUND).until(() -> ends.contains("count SUCCESS"));
    assertThat(ends).containsExactly("count SUCCESS");
  }

  @Test
  void anEmptyStreamAStreamOfOneAndLargeMessages() throws Exception {
    Reader empty = stream(Numbers.COUNT, Numbers.request(0, 8), 1, CallOptions.DEFAULT);
    assertThat(empty.awaitEnd()).isNull();
    assertThat(empty.received).isEmpty();
    // respond() on a streaming method answers a stream of that one message
    Reader one = stream(Numbers.ONE, Numbers.request(7, 8), 1, CallOptions.DEFAULT);
    assertThat(one.awaitEnd()).isNull();
    assertThat(one.indexes()).containsExactly(7);
    Reader large = stream(Numbers.COUNT, Numbers.request(3, 4 * 1024 * 1024), 3, CallOptions.DEFAULT);
    assertThat(large.awaitEnd()).isNull();
    assertThat(large.indexes()).containsExactly(0, 1, 2);
  }

  @Test
  void aFailureMidStreamEndsItAfterTheMessagesSent() throws Exception {
    Reader failed = stream(Numbers.COUNT_THEN_FAIL, Numbers.request(5, 8), Long.MAX_VALUE, CallOptions.DEFAULT);
    assertThat(failed.awaitEnd()).isInstanceOfSatisfying(BoltException.class, e -> {
      assertThat(e.status()).isEqualTo(ResponseStatus.SERVER_EXCEPTION);
      assertThat(e.remoteClassName()).isEqualTo(IllegalStateException.class.getName());
      assertThat(e.remoteMessage()).isEqualTo("the source ran dry");
    });
    assertThat(failed.indexes()).isEqualTo(upTo(5));
    Reader refused = stream(Numbers.COUNT_THEN_REFUSE, Numbers.request(2, 8), Long.MAX_VALUE, CallOptions.DEFAULT);
    assertThat(refused.awaitEnd()).isInstanceOfSatisfying(BoltException.class, e -> {
      assertThat(e.remoteClassName()).isEqualTo(java.io.IOException.class.getName());
      assertThat(e.remoteMessage()).isEqualTo("the source is closed for the night");
    });
    assertThat(refused.indexes()).containsExactly(0, 1);
    await().atMost(BOUND).until(() -> ends.contains("countThenFail SERVER_EXCEPTION"));
  }

  @Test
  void aSlowReaderHoldsThePublisherBack() {
    Reader reader = stream(Numbers.COUNT, Numbers.request(-1, 1024), 1, CallOptions.DEFAULT);
    await().atMost(BOUND).until(() -> reader.received.size() == 1);
    // the server sends the caller's credit (16 messages), holds at most the 16 asked for ahead: a reader that
    // stopped holds both ends' memory bounded, whatever the publisher
    int bound = 16 + 16 + 1;
    await().atMost(BOUND).until(() -> numbers.last.emitted.get() >= 16);
    await().atMost(BOUND).during(Duration.ofMillis(300)).until(() -> numbers.last.emitted.get() <= bound);
    // reading again lets the stream go on
    long before = numbers.last.emitted.get();
    reader.subscription.request(200);
    await().atMost(BOUND).until(() -> reader.received.size() == 201);
    assertThat(numbers.last.emitted.get()).isGreaterThan(before);
    assertThat(reader.indexes()).isEqualTo(upTo(201));
    reader.subscription.cancel();
    await().atMost(BOUND).until(() -> numbers.last.cancelled.getCount() == 0);
    await().atMost(BOUND).until(() -> server.cancelledCalls() == 1);
    assertThat(numbers.last.mostOutstanding.get()).isLessThanOrEqualTo(16);
  }

  @Test
  void theCallerCancelsMidStreamAndThePublisherIsCancelled() throws Exception {
    Reader reader = stream(Numbers.COUNT, Numbers.request(-1, 100), 10, CallOptions.DEFAULT);
    await().atMost(BOUND).until(() -> reader.received.size() == 10);
    reader.subscription.cancel();
    await().atMost(BOUND).until(() -> numbers.last.cancelled.getCount() == 0);
    await().atMost(BOUND).until(() -> server.cancelledCalls() == 1);
    assertThat(reader.end).isNotDone(); // a cancelled subscriber is told nothing more
    // the connection serves on
    assertThat(string(channel.invokeSync(EchoService.ECHO, bytes("after"), CallOptions.DEFAULT))).isEqualTo("after");
  }

  @Test
  void theCallersDeadlineCoversTheWholeStream() throws Exception {
    Reader reader = stream(Numbers.COUNT_THEN_STALL, Numbers.request(3, 8), Long.MAX_VALUE,
        CallOptions.DEFAULT.withTimeout(Duration.ofMillis(300)));
    assertThat(reader.awaitEnd()).isInstanceOfSatisfying(BoltException.class,
        e -> assertThat(e.status()).isEqualTo(ResponseStatus.TIMEOUT));
    assertThat(reader.indexes()).containsExactly(0, 1, 2);
    await().atMost(BOUND).until(() -> numbers.last.cancelled.getCount() == 0);
  }

  @Test
  void aConnectionCarriesAHundredStreamsAtOnce() throws Exception {
    List<Reader> open = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      open.add(stream(Numbers.COUNT_THEN_STALL, Numbers.request(1, 8), 1, CallOptions.DEFAULT));
    }
    await().atMost(BOUND).until(() -> open.stream().allMatch(r -> r.received.size() == 1));
    Reader over = stream(Numbers.COUNT, Numbers.request(1, 8), 1, CallOptions.DEFAULT);
    assertThat(over.awaitEnd()).isInstanceOfSatisfying(BoltException.class, e -> {
      assertThat(e.status()).isEqualTo(ResponseStatus.SERVER_THREADPOOL_BUSY);
      assertThat(e.getMessage()).contains("the connection already carries 100 streams, the most it carries at once");
    });
    open.get(0).subscription.cancel();
    await().atMost(BOUND).until(() -> server.cancelledCalls() == 1);
    Reader next = stream(Numbers.COUNT, Numbers.request(2, 8), 2, CallOptions.DEFAULT);
    assertThat(next.awaitEnd()).isNull();
    assertThat(next.indexes()).containsExactly(0, 1);
    open.forEach(r -> r.subscription.cancel()); // the server's drain then waits for none of them
    await().atMost(BOUND).until(() -> server.cancelledCalls() == 100);
  }

  @Test
  void aCallerThatAsksNoStreamIsRefusedAStreamingMethod() {
    // a SOFABolt caller, or one that takes the method for a unary one, sends no credit: refused, not answered
    BoltException refused = org.assertj.core.api.Assertions.catchThrowableOfType(BoltException.class,
        () -> channel.invokeSync(EchoService.method(Numbers.SERVICE, "count", 0, MethodType.REQUEST_RESPONSE, 5_000),
            Numbers.request(1, 8), CallOptions.DEFAULT));
    assertThat(refused.status()).isEqualTo(ResponseStatus.NO_PROCESSOR);
    assertThat(refused.getMessage()).contains("test.Numbers:1.0/count streams its answer, which this caller's protocol"
        + " cannot carry: call it over gRPC, Connect's streaming protocol, or Bolt with a boltgen client");
    assertThat(numbers.last).isNull();
  }
}
