package io.boltgen.runtime.call;

import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.EchoService;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.MethodType;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.RuntimeProvider.ServedService;
import io.boltgen.runtime.ServerCall;
import io.boltgen.runtime.ServerInterceptor;
import io.boltgen.runtime.ServiceDefinition;
import io.boltgen.runtime.internal.FakeTimer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A client-streaming call over a test transport, on virtual time, with a handler whose subscriber the test
 * drives: the caller's messages are asked of the transport only as the subscriber asks, never more than
 * {@value StreamedRequests#AHEAD} ahead; the half-close completes the subscriber after the messages; the deadline,
 * the caller's cancellation and an early answer end the subscriber with a {@link CancellationException} and
 * release what arrived; a message that does not decode refuses the call; a transport that carries one request
 * refuses the method before its handler runs.
 */
class StreamedRequestsTest {

  private static final MethodDescriptor<byte[], byte[]> SUM =
      EchoService.method("test.Sum", "sum", 1, MethodType.CLIENT_STREAMING, 1_000);

  private final FakeTimer time = new FakeTimer();
  private final ConcurrentLinkedQueue<ResponseStatus> heard = new ConcurrentLinkedQueue<>();
  private final AtomicReference<ServerCall> held = new AtomicReference<>();
  private final Reader reader = new Reader();
  private Executor executor = Runnable::run;

  private ServerCalls calls() {
    ServiceDefinition service = ServiceDefinition.builder("test.Sum", "1.0")
        .streamingMethod(SUM, (messages, call) -> {
          held.set(call);
          reader.publisher = messages;
          messages.subscribe(reader);
        })
        .build();
    ServerInterceptor recorder = call -> (status, error, elapsedNanos) -> heard.add(status);
    return ServerCalls.create(List.of(new ServedService(service, null)), executor, null, time, time.ticker(),
        List.of(recorder));
  }

  private RecordingStream start(ServerCalls calls) {
    RecordingStream stream = new RecordingStream();
    ServerStream.Listener call = calls.newCall(calls.methods().get(0), stream, time.nanoTime(), 1_000, false, true);
    ServerCalls.Dispatch dispatch = calls.newDispatch();
    dispatch.start(call);
    dispatch.submit();
    return stream;
  }

  @Test
  void theCallersMessagesAreAskedForAsTheHandlerReadsAndNeverMoreThanSixteenAhead() {
    RecordingStream stream = start(calls());
    assertThat(reader.subscription).as("the handler runs before any message").isNotNull();
    assertThat(stream.asked).as("nothing asked before the subscriber asks").isZero();
    reader.subscription.request(1);
    assertThat(stream.asked).isEqualTo(1);
    stream.send("a");
    assertThat(reader.messages).containsExactly("a");
    reader.subscription.request(Long.MAX_VALUE);
    assertThat(stream.asked).as("16 ahead of what it took").isEqualTo(17);
    send(stream, 8);
    assertThat(stream.asked).as("more once half the window was taken").isEqualTo(25);
    stream.halfClose();
    assertThat(reader.messages).hasSize(9);
    assertThat(reader.completed).isTrue();
    held.get().respond(EchoService.bytes("9"));
    assertThat(stream.closes).extracting(CallStatus::kind).containsExactly(CallStatus.Kind.OK);
    assertThat(stream.written).hasSize(1);
    assertThat(heard).containsExactly(ResponseStatus.SUCCESS);
    assertThat(time.pending()).as("the deadline's timer").isZero();
  }

  @Test
  void aSubscriberThatStopsAskingLeavesTheCallersMessagesWithTheTransport() {
    RecordingStream stream = start(calls());
    reader.subscription.request(3);
    send(stream, 3);
    assertThat(stream.asked).isEqualTo(3);
    assertThat(stream.waiting()).as("what the transport holds back").isZero();
    stream.halfClose();
    assertThat(reader.completed).as("the half-close needs no demand").isTrue();
  }

  @Test
  void theDeadlineEndsTheSubscriberAndReleasesWhatArrived() {
    List<Runnable> later = new ArrayList<>();
    executor = later::add; // the drain waits, so that messages are held when the deadline passes
    RecordingStream stream = start(calls());
    later.remove(0).run(); // the handler
    reader.subscription.request(4);
    runAll(later);
    send(stream, 2);
    time.advance(1_000, TimeUnit.MILLISECONDS);
    runAll(later);
    assertThat(reader.messages).isEmpty();
    assertThat(reader.error).isInstanceOf(CancellationException.class)
        .hasMessage("the call of test.Sum:1.0/sum ended before its handler read all its caller's messages");
    assertThat(stream.dropped()).as("both messages that arrived").isEqualTo(2);
    assertThat(stream.closes).extracting(CallStatus::kind).containsExactly(CallStatus.Kind.DEADLINE_EXCEEDED);
    assertThat(heard).containsExactly(ResponseStatus.TIMEOUT);
  }

  @Test
  void theCallersCancellationEndsTheSubscriber() {
    ServerCalls calls = calls();
    RecordingStream stream = start(calls);
    reader.subscription.request(1);
    stream.open = false;
    stream.listener.onCancel();
    assertThat(reader.error).isInstanceOf(CancellationException.class);
    assertThat(stream.closes).extracting(CallStatus::kind).containsExactly(CallStatus.Kind.CANCELLED);
    assertThat(calls.cancelledCalls()).isEqualTo(1);
    stream.send("late");
    assertThat(stream.dropped()).as("a message after the end").isEqualTo(1);
    assertThat(reader.messages).isEmpty();
  }

  @Test
  void anAnswerBeforeTheLastMessageEndsTheSubscriberAndTheRestIsReleased() {
    RecordingStream stream = start(calls());
    reader.subscription.request(2);
    stream.send("a");
    held.get().respond(EchoService.bytes("early"));
    stream.send("b");
    assertThat(reader.messages).containsExactly("a");
    assertThat(reader.error).isInstanceOf(CancellationException.class);
    assertThat(stream.dropped()).isEqualTo(1);
    assertThat(stream.closes).extracting(CallStatus::kind).containsExactly(CallStatus.Kind.OK);
  }

  @Test
  void aMessageThatDoesNotDecodeRefusesTheCall() {
    RecordingStream stream = start(calls());
    reader.subscription.request(5);
    stream.send("a");
    stream.undecodable = true;
    stream.send("b");
    stream.undecodable = false;
    stream.send("c");
    assertThat(reader.messages).containsExactly("a");
    assertThat(reader.error).isInstanceOf(BoltException.class).hasMessage("not the message it claims to be");
    assertThat(stream.closes).extracting(CallStatus::code).containsExactly(ResponseStatus.SERVER_DESERIAL_EXCEPTION);
    assertThat(stream.dropped()).as("the message after it").isEqualTo(1);
    assertThat(heard).containsExactly(ResponseStatus.SERVER_DESERIAL_EXCEPTION);
  }

  @Test
  void aSecondSubscriberIsRefusedAndTheFirstGoesOn() {
    RecordingStream stream = start(calls());
    Reader second = new Reader();
    reader.publisher.subscribe(second);
    assertThat(second.error).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("have one subscriber");
    reader.subscription.request(1);
    stream.send("a");
    assertThat(reader.messages).containsExactly("a");
  }

  @Test
  void askingForNothingBreaksRuleThreeNineAndFailsTheCall() {
    RecordingStream stream = start(calls());
    reader.subscription.request(0);
    assertThat(reader.error).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("rule 3.9");
    assertThat(stream.closes).extracting(CallStatus::kind).containsExactly(CallStatus.Kind.FAILED);
  }

  @Test
  void aSubscriberThatCancelsHearsNothingMoreAndTheHandlerStillAnswers() {
    RecordingStream stream = start(calls());
    reader.subscription.request(2);
    stream.send("a");
    reader.subscription.cancel();
    stream.send("b");
    assertThat(reader.messages).containsExactly("a");
    assertThat(stream.dropped()).isEqualTo(1);
    held.get().respond(EchoService.bytes("1"));
    assertThat(reader.error).as("it cancelled: told nothing more").isNull();
    assertThat(stream.closes).extracting(CallStatus::kind).containsExactly(CallStatus.Kind.OK);
  }

  /** Starts a call whose handler runs and subscribes, then fills the executor: it refuses every task after. */
  private RecordingStream startThenFill() {
    List<Runnable> later = new ArrayList<>();
    boolean[] full = {false};
    executor = task -> {
      if (full[0]) {
        throw new RejectedExecutionException("full");
      }
      later.add(task);
    };
    RecordingStream stream = start(calls());
    runAll(later); // the handler, and the drain its subscription asked for
    full[0] = true;
    return stream;
  }

  @Test
  void aFullExecutorRefusesTheCallAndReleasesWhatArrived() {
    RecordingStream stream = startThenFill();
    reader.subscription.request(1);
    assertThat(stream.closes).extracting(CallStatus::code).containsExactly(ResponseStatus.SERVER_THREADPOOL_BUSY);
    assertThat(reader.error).isInstanceOf(CancellationException.class);
  }

  @Test
  void anAnswerGivenWhileTheExecutorIsFullIsHeardAsItself() {
    RecordingStream stream = startThenFill();
    held.get().respond(EchoService.bytes("0")); // its end stops the reading, whose drain the executor refuses
    assertThat(stream.closes).extracting(CallStatus::kind).containsExactly(CallStatus.Kind.OK);
    assertThat(heard).containsExactly(ResponseStatus.SUCCESS);
    assertThat(reader.error).isInstanceOf(CancellationException.class);
  }

  @Test
  void aTransportThatCarriesOneRequestRefusesTheMethodBeforeItsHandler() {
    ServerCalls calls = calls();
    RecordingStream stream = new RecordingStream();
    stream.carriesRequestStreams = false;
    ServerStream.Listener call = calls.newCall(calls.methods().get(0), stream, time.nanoTime(), 1_000, false, true);
    ServerCalls.Dispatch dispatch = calls.newDispatch();
    dispatch.start(call);
    dispatch.submit();
    assertThat(held.get()).as("its handler never ran").isNull();
    assertThat(stream.closes).singleElement().satisfies(s -> {
      assertThat(s.code()).isEqualTo(ResponseStatus.NO_PROCESSOR);
      assertThat(s.message()).isEqualTo(
          "test.Sum:1.0/sum streams its requests, which this caller's protocol cannot carry: call it over gRPC,"
          + " Connect's streaming protocol, or Bolt with a boltgen client");
    });
    assertThat(stream.asked).as("the one request such a transport carries, told only to be released").isEqualTo(1);
  }

  private static void send(RecordingStream stream, int count) {
    for (int i = 0; i < count; i++) {
      stream.send("m" + i);
    }
  }

  private static void runAll(List<Runnable> tasks) {
    while (!tasks.isEmpty()) {
      tasks.remove(0).run();
    }
  }

  /** The handler's subscriber: records what it is told; asks only when the test does. */
  private static final class Reader implements Flow.Subscriber<byte[]> {
    final List<String> messages = new ArrayList<>();
    Flow.Publisher<byte[]> publisher;
    Flow.Subscription subscription;
    Throwable error;
    boolean completed;

    @Override
    public void onSubscribe(Flow.Subscription s) {
      subscription = s;
    }

    @Override
    public void onNext(byte[] message) {
      messages.add(new String(message, StandardCharsets.UTF_8));
    }

    @Override
    public void onError(Throwable e) {
      error = e;
    }

    @Override
    public void onComplete() {
      completed = true;
    }
  }
}
