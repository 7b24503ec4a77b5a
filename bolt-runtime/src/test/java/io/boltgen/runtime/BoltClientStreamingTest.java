package io.boltgen.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import io.boltgen.testing.TestCertificates;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A boltgen client streams its requests to a boltgen server over Bolt (boltgen's extension of the wire), plain and
 * over TLS: every message read and the answer after the last, a bidirectional echo in order, the caller's publisher
 * held back by a handler that reads slowly (the server grants only what its handler asks for), a failure, the
 * caller's deadline and cancellation mid-stream, and an early answer that stops the caller's publisher.
 */
@ParameterizedClass(name = "tls={0}")
@ValueSource(booleans = {false, true})
class BoltClientStreamingTest {

  private static final Duration BOUND = Duration.ofSeconds(10);
  private static final int MIB_4 = 4 * 1024 * 1024;

  @TempDir
  static Path certificatesDir;

  private static TestCertificates certs;

  @Parameter
  boolean tls;

  private final Tallies tallies = new Tallies();
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
    BoltServer.Builder served = BoltServer.builder().bind("127.0.0.1", 0).service(tallies.definition())
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
  void stop() {
    client.close();
    server.close();
  }

  private static List<byte[]> messages(int count, int size) {
    List<byte[]> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      out.add(Tallies.message(i, size));
    }
    return out;
  }

  private long[] tally(MethodDescriptor<byte[], byte[]> method, Flow.Publisher<byte[]> requests) throws Exception {
    return Tallies.counts(channel.invokeClientStream(method, requests, CallOptions.DEFAULT)
        .get(BOUND.toMillis(), TimeUnit.MILLISECONDS));
  }

  @Test
  void theHandlerReadsEveryMessageAndAnswersAfterTheLast() throws Exception {
    assertThat(tally(Tallies.SUM, Publishers.of(messages(1000, 100)))).containsExactly(1000, 100_000);
    await().atMost(BOUND).until(() -> ends.contains("sum SUCCESS"));
    assertThat(ends).containsExactly("sum SUCCESS");
  }

  @Test
  void anEmptyStreamAndFourMebibyteMessages() throws Exception {
    assertThat(tally(Tallies.SUM, Publishers.of(List.of()))).containsExactly(0, 0);
    assertThat(tally(Tallies.SUM, Publishers.of(messages(3, MIB_4)))).containsExactly(3, 3L * MIB_4);
  }

  @Test
  void aBidirectionalCallEchoesEveryMessageInOrder() throws Exception {
    List<Integer> got = new CopyOnWriteArrayList<>();
    CompletableFuture<Throwable> ended = new CompletableFuture<>();
    channel.invokeBidiStream(Tallies.ECHO, Publishers.of(messages(1000, 64)), CallOptions.DEFAULT)
        .subscribe(new Flow.Subscriber<byte[]>() {
          @Override
          public void onSubscribe(Flow.Subscription s) {
            s.request(Long.MAX_VALUE);
          }

          @Override
          public void onNext(byte[] item) {
            got.add(ByteBuffer.wrap(item).getInt());
          }

          @Override
          public void onError(Throwable error) {
            ended.complete(error);
          }

          @Override
          public void onComplete() {
            ended.complete(null);
          }
        });
    assertThat(ended.get(BOUND.toMillis(), TimeUnit.MILLISECONDS)).isNull();
    assertThat(got).hasSize(1000);
    for (int i = 0; i < 1000; i++) {
      assertThat(got.get(i)).isEqualTo(i);
    }
  }

  @Test
  void aHandlerThatReadsSlowlyHoldsTheCallersPublisherBack() throws Exception {
    Counted requests = new Counted(Publishers.of(messages(500, 1024)));
    CompletableFuture<byte[]> answer = channel.invokeClientStream(Tallies.HOLD, requests, CallOptions.DEFAULT);
    await().atMost(BOUND).until(() -> tallies.last != null && tallies.last.received.get() == 1);
    // the server granted one message, its handler's one; the caller's publisher was asked for 16 ahead, no more
    await().atMost(BOUND).during(Duration.ofMillis(300)).until(() -> requests.requested.get() <= 16);
    assertThat(tallies.last.received).hasValue(1);
    tallies.last.resume();
    assertThat(Tallies.counts(answer.get(BOUND.toMillis(), TimeUnit.MILLISECONDS))).containsExactly(500, 500 * 1024);
  }

  @Test
  void aFailureMidStreamFailsTheCallWhileTheCallerStillSends() throws Exception {
    ExecutionException failed = catchThrowableOfType(ExecutionException.class,
        () -> tally(Tallies.SUM_THEN_FAIL, new Counted(Publishers.of(messages(100, 8)))));
    assertThat(failed.getCause()).isInstanceOfSatisfying(BoltException.class, e -> {
      assertThat(e.status()).isEqualTo(ResponseStatus.SERVER_EXCEPTION);
      assertThat(e.remoteMessage()).isEqualTo("the tally broke");
    });
    await().atMost(BOUND).until(() -> ends.contains("sumThenFail SERVER_EXCEPTION"));
  }

  @Test
  void anEarlyAnswerEndsTheCallAndStopsTheCallersPublisher() throws Exception {
    Counted requests = new Counted(Publishers.of(messages(1000, 8)));
    byte[] first = channel.invokeClientStream(Tallies.FIRST, requests, CallOptions.DEFAULT)
        .get(BOUND.toMillis(), TimeUnit.MILLISECONDS);
    assertThat(ByteBuffer.wrap(first).getInt()).isZero();
    assertThat(requests.cancelled.await(BOUND.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
    // the connection serves on
    assertThat(tally(Tallies.SUM, Publishers.of(messages(2, 8)))).containsExactly(2, 16);
  }

  @Test
  void theCallersDeadlineCoversTheWholeStream() throws Exception {
    Counted requests = new Counted(Publishers.of(messages(1, 8)), false);
    CompletableFuture<byte[]> answer = channel.invokeClientStream(Tallies.SUM, requests,
        CallOptions.DEFAULT.withTimeout(Duration.ofMillis(300)));
    ExecutionException failed = catchThrowableOfType(ExecutionException.class,
        () -> answer.get(BOUND.toMillis(), TimeUnit.MILLISECONDS));
    assertThat(failed.getCause()).isInstanceOfSatisfying(BoltException.class,
        e -> assertThat(e.status()).isEqualTo(ResponseStatus.TIMEOUT));
    Tallies.Tally tally = tallies.last;
    assertThat(tally.ended.await(BOUND.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
    assertThat(tally.error.get()).isInstanceOf(CancellationException.class);
    assertThat(requests.cancelled.await(BOUND.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
  }

  @Test
  void theCallerCancelsMidStream() throws Exception {
    Counted requests = new Counted(Publishers.of(messages(2, 8)), false);
    CompletableFuture<byte[]> answer = channel.invokeClientStream(Tallies.SUM, requests, CallOptions.DEFAULT);
    await().atMost(BOUND).until(() -> tallies.last != null && tallies.last.received.get() == 2);
    answer.cancel(true);
    Tallies.Tally tally = tallies.last;
    assertThat(tally.cancelled.await(BOUND.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
    assertThat(tally.ended.await(BOUND.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
    assertThat(tally.error.get()).isInstanceOf(CancellationException.class);
    assertThat(requests.cancelled.await(BOUND.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
    await().atMost(BOUND).until(() -> ends.contains("sum CONNECTION_CLOSED") && server.cancelledCalls() == 1);
  }

  /**
   * A raw call's caller that sends without waiting for the call to be ready fills what waits for the server's credit
   * up to its bound, then its call is cancelled and the next message refused: memory stays bounded.
   */
  @Test
  void aCallerThatIgnoresReadinessIsStoppedAtTheBound() throws Exception {
    ClientCall<byte[], byte[]> call = channel.newCall(Tallies.HOLD, CallOptions.DEFAULT);
    CompletableFuture<Throwable> closed = new CompletableFuture<>();
    call.start(new ClientCall.Listener<>() {
      @Override
      public void onMessage(byte[] message) {}

      @Override
      public void onClose(Throwable error, java.util.Map<String, String> trailers) {
        closed.complete(error);
      }
    });
    await().atMost(BOUND).until(() -> tallies.last != null); // its handler runs, and reads one message
    IllegalStateException refused = null;
    int sent = 0;
    while (refused == null && sent < 10_000) {
      try {
        call.sendMessage(Tallies.message(sent, 8));
        sent++;
      } catch (IllegalStateException e) {
        refused = e;
      }
    }
    assertThat(refused).isNotNull().hasMessageContaining("1024 messages of the call of test.Tally:1.0/hold wait for"
        + " its server to ask for them");
    assertThat(sent).isBetween(1024, 1024 + 16); // the server's credit let a few leave
    assertThat(closed.get(BOUND.toMillis(), TimeUnit.MILLISECONDS)).isInstanceOf(CancellationException.class);
    Tallies.Tally tally = tallies.last;
    assertThat(tally.ended.await(BOUND.toMillis(), TimeUnit.MILLISECONDS)).as("its server was told").isTrue();
  }

  @Test
  void aCallerThatAsksNoStreamIsRefusedAStreamOfRequests() {
    // a SOFABolt caller, or one that takes the method for a unary one, sends no credit: refused, not answered
    BoltException refused = catchThrowableOfType(BoltException.class, () -> channel.invokeSync(
        EchoService.method(Tallies.SERVICE, "sum", 0, MethodType.REQUEST_RESPONSE, 5_000), Tallies.message(0, 8),
        CallOptions.DEFAULT));
    assertThat(refused.status()).isEqualTo(ResponseStatus.NO_PROCESSOR);
    assertThat(refused.getMessage()).contains("test.Tally:1.0/sum streams its requests, which this caller's protocol"
        + " cannot carry: call it over gRPC, Connect's streaming protocol, or Bolt with a boltgen client");
    assertThat(tallies.last).as("its handler never ran").isNull();
  }

  /**
   * A publisher of {@code source}'s items that counts the demand it was asked for and says when it was cancelled;
   * unless it {@code completes}, it never ends (its caller has more to say, later).
   */
  private static final class Counted implements Flow.Publisher<byte[]> {
    final AtomicLong requested = new AtomicLong();
    final CountDownLatch cancelled = new CountDownLatch(1);
    private final Flow.Publisher<byte[]> source;
    private final boolean completes;

    Counted(Flow.Publisher<byte[]> source) {
      this(source, true);
    }

    Counted(Flow.Publisher<byte[]> source, boolean completes) {
      this.source = source;
      this.completes = completes;
    }

    @Override
    public void subscribe(Flow.Subscriber<? super byte[]> subscriber) {
      source.subscribe(new Flow.Subscriber<byte[]>() {
        @Override
        public void onSubscribe(Flow.Subscription s) {
          subscriber.onSubscribe(new Flow.Subscription() {
            @Override
            public void request(long n) {
              requested.addAndGet(n);
              s.request(n);
            }

            @Override
            public void cancel() {
              cancelled.countDown();
              s.cancel();
            }
          });
        }

        @Override
        public void onNext(byte[] item) {
          subscriber.onNext(item);
        }

        @Override
        public void onError(Throwable error) {
          subscriber.onError(error);
        }

        @Override
        public void onComplete() {
          if (completes) {
            subscriber.onComplete();
          }
        }
      });
    }
  }
}
