package io.boltgen.runtime;

import static io.boltgen.runtime.EchoService.bytes;
import static io.boltgen.runtime.EchoService.string;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link BoltChannel#invokeStream} over a real Bolt connection: a request-response method publishes its one answer
 * once asked for, a failure is the subscriber's error, a cancelled subscription sends nothing; a server-streaming
 * method the server does not serve fails its subscriber and leaves the channel's unary calls alone (streams
 * themselves: {@link BoltStreamingTest}).
 */
class CallPublisherTest {

  private static final Duration BOUND = Duration.ofSeconds(10);

  private final EchoService echo = new EchoService();
  private BoltServer server;
  private BoltClient client;
  private BoltChannel channel;

  @BeforeEach
  void start() {
    server = BoltServer.builder().bind("127.0.0.1", 0).service(echo.definition()).build().start();
    client = BoltClient.builder().build();
    channel = client.channel("127.0.0.1:" + server.port());
  }

  @AfterEach
  void stop() {
    client.close();
    server.close();
  }

  /** A subscriber that records what it is told, and asks for {@code demand} at its subscription. */
  private static final class Recorder implements Flow.Subscriber<byte[]> {
    final List<String> messages = new CopyOnWriteArrayList<>();
    final CompletableFuture<Throwable> end = new CompletableFuture<>();
    final long demand;
    volatile Flow.Subscription subscription;

    Recorder(long demand) {
      this.demand = demand;
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
      subscription = s;
      if (demand > 0) {
        s.request(demand);
      }
    }

    @Override
    public void onNext(byte[] item) {
      messages.add(string(item));
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
  }

  @Test
  void aRequestResponseMethodPublishesItsOneAnswerOnceAskedFor() throws Exception {
    Recorder early = new Recorder(0);
    channel.invokeStream(EchoService.ECHO, bytes("one"), CallOptions.DEFAULT).subscribe(early);
    // the call is made at the subscription; its answer waits for demand
    await().atMost(BOUND).until(() -> echo.echoed.get() == 1);
    assertThat(early.messages).isEmpty();
    assertThat(early.end).isNotDone();
    early.subscription.request(1);
    assertThat(early.awaitEnd()).isNull();
    assertThat(early.messages).containsExactly("one");
    // each subscription is a call of its own
    Flow.Publisher<byte[]> twice = channel.invokeStream(EchoService.ECHO, bytes("two"), CallOptions.DEFAULT);
    Recorder a = new Recorder(Long.MAX_VALUE);
    Recorder b = new Recorder(5);
    twice.subscribe(a);
    twice.subscribe(b);
    assertThat(a.awaitEnd()).isNull();
    assertThat(b.awaitEnd()).isNull();
    assertThat(a.messages).containsExactly("two");
    assertThat(b.messages).containsExactly("two");
    assertThat(echo.echoed.get()).isEqualTo(3);
  }

  @Test
  void aFailureIsTheSubscribersError() throws Exception {
    Recorder r = new Recorder(1);
    channel.invokeStream(EchoService.FAIL, bytes("x"), CallOptions.DEFAULT).subscribe(r);
    assertThat(r.awaitEnd()).isInstanceOf(BoltException.class).hasMessageContaining("boom: x");
    assertThat(r.messages).isEmpty();
  }

  @Test
  void demandThatIsNotPositiveCancelsAndFails() throws Exception {
    Recorder r = new Recorder(0);
    channel.invokeStream(EchoService.ECHO, bytes("x"), CallOptions.DEFAULT).subscribe(r);
    r.subscription.request(0);
    assertThat(r.awaitEnd()).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("demand must be positive, not 0 (Reactive Streams, rule 3.9)");
  }

  @Test
  void aStreamingMethodTheServerDoesNotServeFailsItsSubscriber() throws Exception {
    MethodDescriptor<byte[], byte[]> tail = EchoService.method("test.Echo", "tail", 9, MethodType.SERVER_STREAMING,
        5_000);
    Recorder r = new Recorder(1);
    channel.invokeStream(tail, bytes("x"), CallOptions.DEFAULT).subscribe(r);
    assertThat(r.awaitEnd()).isInstanceOfSatisfying(BoltException.class,
        e -> assertThat(e.status()).isEqualTo(ResponseStatus.NO_PROCESSOR));
    assertThat(r.messages).isEmpty();
    assertThat(string(channel.invokeSync(EchoService.ECHO, bytes("after"), CallOptions.DEFAULT))).isEqualTo("after");
  }
}
