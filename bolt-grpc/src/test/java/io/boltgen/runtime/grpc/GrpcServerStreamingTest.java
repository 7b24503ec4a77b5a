package io.boltgen.runtime.grpc;

import static io.boltgen.runtime.grpc.RawGrpc.message;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import io.boltgen.runtime.BoltChannel;
import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.BoltServer;
import io.boltgen.runtime.EchoService;
import io.boltgen.runtime.MethodType;
import io.boltgen.runtime.Numbers;
import io.boltgen.runtime.ResponseStatus;
import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCalls;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * grpc-java's stock client calls server-streaming methods on the Bolt port: every message in order and the status
 * after them, a failure mid-stream, demand bounded by the caller's reading, cancellation by the caller, the
 * caller's deadline over the whole stream; and the protocols that carry one answer per call refuse such a method.
 */
class GrpcServerStreamingTest {

  private static final Duration BOUND = Duration.ofSeconds(10);
  private static final int KIB_64 = 64 * 1024;

  private final Numbers numbers = new Numbers();
  // what the server's interceptor was told of each call's end
  private final List<String> ends = new CopyOnWriteArrayList<>();
  private BoltServer server;
  private ManagedChannel grpc;

  @BeforeEach
  void start() {
    server = BoltServer.builder().bind("127.0.0.1", 0).service(numbers.definition()).http(true)
        .serverInterceptor(call -> (status, error, elapsedNanos) -> ends.add(call.method().methodName() + " " + status))
        .build().start();
    // a fixed flow-control window of 1 MiB, so that what a slow reader lets the server send is known
    grpc = NettyChannelBuilder.forAddress("127.0.0.1", server.port()).usePlaintext()
        .flowControlWindow(1024 * 1024).maxInboundMessageSize(5 * 1024 * 1024).build();
  }

  @AfterEach
  void stop() throws InterruptedException {
    grpc.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    server.close();
    numbers.close();
  }

  private Iterator<byte[]> stream(String method, byte[] request) {
    return ClientCalls.blockingServerStreamingCall(grpc, GrpcJava.serverStreaming(Numbers.SERVICE, method),
        CallOptions.DEFAULT.withDeadlineAfter(BOUND.toMillis(), TimeUnit.MILLISECONDS), request);
  }

  private static List<Integer> indexes(Iterator<byte[]> messages, int size) {
    List<Integer> got = new ArrayList<>();
    messages.forEachRemaining(m -> {
      assertThat(m).hasSize(size);
      got.add(Numbers.index(m));
    });
    return got;
  }

  private static List<Integer> upTo(int count) {
    List<Integer> expected = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      expected.add(i);
    }
    return expected;
  }

  @Test
  void everyMessageArrivesInOrderThenTheStreamEndsOk() {
    assertThat(indexes(stream("count", Numbers.request(1000, 100)), 100)).isEqualTo(upTo(1000));
    // the publisher was never asked for more than 16 messages ahead of what it sent
    assertThat(numbers.last.mostOutstanding.get()).isBetween(1L, 16L);
    assertThat(numbers.last.cancelled.getCount()).isEqualTo(1); // it completed: nothing to cancel
    await().atMost(BOUND).until(() -> ends.contains("count SUCCESS"));
    assertThat(ends).containsExactly("count SUCCESS");
  }

  @Test
  void anEmptyStreamAndAStreamOfOne() {
    assertThat(indexes(stream("count", Numbers.request(0, 8)), 8)).isEmpty();
    // respond() on a streaming method answers a stream of that one message
    assertThat(indexes(stream("one", Numbers.request(7, 8)), 8)).containsExactly(7);
  }

  @Test
  void fourMebibyteMessages() {
    assertThat(indexes(stream("count", Numbers.request(3, 4 * 1024 * 1024)), 4 * 1024 * 1024))
        .containsExactly(0, 1, 2);
  }

  @Test
  void aFailureMidStreamIsTheStatusAfterTheMessagesSent() {
    Iterator<byte[]> messages = stream("countThenFail", Numbers.request(5, 8));
    List<Integer> got = new ArrayList<>();
    StatusRuntimeException failed = catchThrowableOfType(StatusRuntimeException.class,
        () -> messages.forEachRemaining(m -> got.add(Numbers.index(m))));
    assertThat(got).isEqualTo(upTo(5));
    assertThat(failed.getStatus().getCode()).isEqualTo(Status.Code.INTERNAL);
    assertThat(failed.getStatus().getDescription()).isEqualTo("the source ran dry");
    await().atMost(BOUND).until(() -> ends.contains("countThenFail SERVER_EXCEPTION"));
  }

  @Test
  void aDeclaredExceptionMidStreamIsFailedPreconditionWithDetails() {
    Iterator<byte[]> messages = stream("countThenRefuse", Numbers.request(2, 8));
    List<Integer> got = new ArrayList<>();
    StatusRuntimeException failed = catchThrowableOfType(StatusRuntimeException.class,
        () -> messages.forEachRemaining(m -> got.add(Numbers.index(m))));
    assertThat(got).containsExactly(0, 1);
    assertThat(failed.getStatus().getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION);
    assertThat(failed.getStatus().getDescription()).isEqualTo("the source is closed for the night");
    assertThat(failed.getTrailers().containsKey(
        Metadata.Key.of("grpc-status-details-bin", Metadata.BINARY_BYTE_MARSHALLER))).isTrue();
  }

  /** A caller that reads, then cancels: each step on its own, as it asks. */
  private static final class Reader extends ClientCall.Listener<byte[]> {
    final LinkedBlockingQueue<byte[]> received = new LinkedBlockingQueue<>();
    final AtomicReference<Status> closed = new AtomicReference<>();

    @Override
    public void onMessage(byte[] message) {
      received.add(message);
    }

    @Override
    public void onClose(Status status, Metadata trailers) {
      closed.set(status);
    }
  }

  private ClientCall<byte[], byte[]> open(Reader reader, byte[] request, int firstDemand) {
    ClientCall<byte[], byte[]> call = grpc.newCall(GrpcJava.serverStreaming(Numbers.SERVICE, "count"),
        CallOptions.DEFAULT);
    call.start(reader, new Metadata());
    call.sendMessage(request);
    call.halfClose();
    call.request(firstDemand);
    return call;
  }

  @Test
  void aSlowReaderHoldsThePublisherBackAndTheServerHoldsLittle() {
    Reader reader = new Reader();
    ClientCall<byte[], byte[]> call = open(reader, Numbers.request(-1, KIB_64), 1);
    await().atMost(BOUND).until(() -> reader.received.size() == 1);
    // the server sends until the reader's 1 MiB window is full (16 messages), holds at most 64 KiB more, and
    // asks for at most 16 more: what it holds for a reader that stopped is bounded, whatever the publisher
    int bound = 16 + 1 + 16;
    await().atMost(BOUND).until(() -> numbers.last.emitted.get() >= 16);
    await().atMost(BOUND).during(Duration.ofMillis(300)).until(() -> numbers.last.emitted.get() <= bound);
    // reading again lets the stream go on
    long before = numbers.last.emitted.get();
    call.request(200);
    await().atMost(BOUND).until(() -> reader.received.size() == 201);
    assertThat(numbers.last.emitted.get()).isGreaterThan(before);
    call.cancel("read enough", null);
    await().atMost(BOUND).until(() -> numbers.last.cancelled.getCount() == 0);
    await().atMost(BOUND).until(() -> server.cancelledCalls() == 1);
    assertThat(numbers.last.mostOutstanding.get()).isLessThanOrEqualTo(16);
  }

  @Test
  void theCallerCancelsMidStreamAndThePublisherIsCancelled() {
    Reader reader = new Reader();
    ClientCall<byte[], byte[]> call = open(reader, Numbers.request(-1, 100), 10);
    await().atMost(BOUND).until(() -> reader.received.size() == 10);
    call.cancel("enough", null);
    await().atMost(BOUND).until(() -> numbers.last.cancelled.getCount() == 0);
    await().atMost(BOUND).until(() -> server.cancelledCalls() == 1);
    await().atMost(BOUND).until(() -> ends.contains("count CONNECTION_CLOSED"));
    assertThat(reader.closed.get().getCode()).isEqualTo(Status.Code.CANCELLED);
    // the port serves on
    assertThat(indexes(stream("count", Numbers.request(3, 8)), 8)).containsExactly(0, 1, 2);
  }

  @Test
  void theCallersDeadlineCoversTheWholeStream() throws IOException {
    try (RawGrpc raw = RawGrpc.connect(server.port())) {
      RawGrpc.Answer answer = raw.call(RawGrpc.request("x").path("/test.Numbers/countThenStall")
          .set("grpc-timeout", "300m"), message(0, Numbers.request(3, 8)));
      // the messages sent, then the server's own words: its deadline, the caller's 300 ms, ended the stream
      assertThat(answer.status()).isEqualTo("200");
      assertThat(answer.messages()).extracting(Numbers::index).containsExactly(0, 1, 2);
      assertThat(answer.grpcStatus()).isEqualTo("4");
      assertThat(answer.grpcMessage()).isEqualTo("/test.Numbers/countThenStall did not end its stream within 300 ms");
    }
    await().atMost(BOUND).until(() -> numbers.last.cancelled.getCount() == 0);
    await().atMost(BOUND).until(() -> ends.contains("countThenStall TIMEOUT"));
  }

  @Test
  void connectAndUnaryBoltCallersAreRefusedAStreamingMethodWhichBoltgenStreamsOverBolt() throws Exception {
    HttpResponse<String> connect = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + server.port() + "/test.Numbers/count"))
        .header("content-type", "application/proto")
        .POST(HttpRequest.BodyPublishers.ofByteArray(Numbers.request(1, 8))).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(connect.body()).contains("\"code\":\"unimplemented\"")
        .contains("streams its answer, which this caller's protocol cannot carry: call it over gRPC, Connect's"
            + " streaming protocol, or Bolt with a boltgen client");
    try (BoltClient client = BoltClient.builder().build()) {
      BoltChannel channel = client.channel("127.0.0.1:" + server.port());
      // a Bolt caller that takes the method for a unary one (a SOFABolt caller) is refused by the server
      BoltException refused = catchThrowableOfType(BoltException.class, () -> channel.invokeSync(
          EchoService.method(Numbers.SERVICE, "count", 0, MethodType.REQUEST_RESPONSE, 5_000),
          Numbers.request(1, 8), io.boltgen.runtime.CallOptions.DEFAULT));
      assertThat(refused.status()).isEqualTo(ResponseStatus.NO_PROCESSOR);
      assertThat(numbers.last).isNull(); // neither ran the handler
      // a boltgen caller streams over Bolt, on the same port
      List<Integer> got = new CopyOnWriteArrayList<>();
      java.util.concurrent.CompletableFuture<Throwable> ended = new java.util.concurrent.CompletableFuture<>();
      channel.invokeStream(Numbers.COUNT, Numbers.request(3, 8), io.boltgen.runtime.CallOptions.DEFAULT)
          .subscribe(new java.util.concurrent.Flow.Subscriber<byte[]>() {
            @Override
            public void onSubscribe(java.util.concurrent.Flow.Subscription s) {
              s.request(Long.MAX_VALUE);
            }

            @Override
            public void onNext(byte[] item) {
              got.add(Numbers.index(item));
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
      assertThat(got).containsExactly(0, 1, 2);
    }
  }
}
