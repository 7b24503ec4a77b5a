package io.boltgen.runtime.call;

import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.runtime.EchoService;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.MethodType;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.RuntimeProvider.ServedService;
import io.boltgen.runtime.ServerCall;
import io.boltgen.runtime.ServerContext;
import io.boltgen.runtime.ServerInterceptor;
import io.boltgen.runtime.ServiceDefinition;
import io.boltgen.runtime.internal.FakeTimer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The one server call over a transport's stream, on virtual time and a test transport that records what the
 * call tells it: every outcome (an answer, a failure, a refusal, the deadline, the caller's cancellation)
 * closes the stream exactly once, and the interceptors hear exactly one outcome, whichever comes first; a
 * unary call takes one message; the deadline is one timer entry, gone once the call closed. The test transport
 * holds the caller's messages and tells them only as the call asks ({@link ServerStream#request}), as every
 * transport must: so the stream's shape is shown too, several messages offered, the call's demand respected, an
 * early close by either side.
 */
class ServedCallTest {

  private static final MethodDescriptor<byte[], byte[]> ECHO =
      EchoService.method("test.Call", "echo", 1, MethodType.REQUEST_RESPONSE, 1_000);

  private final FakeTimer time = new FakeTimer();
  private final ConcurrentLinkedQueue<ResponseStatus> heard = new ConcurrentLinkedQueue<>();
  private final AtomicReference<ServerCall> held = new AtomicReference<>();
  private final AtomicInteger handled = new AtomicInteger();
  private final List<Runnable> cancelListeners = new ArrayList<>();

  /** A server whose handler keeps its call in {@link #held} and answers later, on the test's word. */
  private ServerCalls calls() {
    ServiceDefinition service = ServiceDefinition.builder("test.Call", "1.0").method(ECHO, (request, call) -> {
      handled.incrementAndGet();
      cancelListeners.forEach(call.context()::onCancel);
      held.set(call);
    }).build();
    ServerInterceptor recorder = call -> (status, error, elapsedNanos) -> heard.add(status);
    return ServerCalls.create(List.of(new ServedService(service, null)), Runnable::run, null, time, time.ticker(),
        List.of(recorder));
  }

  /** Starts a Connect-like call (it answers its deadline) of ECHO over {@code stream}, whose caller sent "hello". */
  private ServerStream.Listener start(ServerCalls calls, RecordingStream stream, int timeoutMillis) {
    stream.send("hello");
    stream.halfClose();
    return calls.newCall(calls.methods().get(0), stream, time.nanoTime(), timeoutMillis, false, true);
  }

  private static void run(ServerCalls calls, ServerStream.Listener call) {
    ServerCalls.Dispatch dispatch = calls.newDispatch();
    dispatch.start(call);
    dispatch.submit();
  }

  @Test
  void anAnswerClosesTheStreamOnceAndLaterOutcomesAreIgnored() {
    ServerCalls calls = calls();
    RecordingStream stream = new RecordingStream();
    ServerStream.Listener call = start(calls, stream, 1_000);
    run(calls, call);
    held.get().respond(EchoService.bytes("world"));
    held.get().respond(EchoService.bytes("again"));
    held.get().fail(new IllegalStateException("late"));
    call.onCancel();
    time.advance(2, TimeUnit.SECONDS);
    assertThat(stream.written).containsExactly("world");
    assertThat(stream.closes).extracting(CallStatus::kind).containsExactly(CallStatus.Kind.OK);
    assertThat(heard).containsExactly(ResponseStatus.SUCCESS);
    assertThat(time.pending()).as("the deadline's timer entry, cancelled by the answer").isZero();
  }

  @Test
  void theDeadlineAnswersOnceByOneTimerAndTheHandlersLateAnswerGoesNowhere() {
    ServerCalls calls = calls();
    RecordingStream stream = new RecordingStream();
    ServerStream.Listener call = start(calls, stream, 500);
    assertThat(time.pending()).as("one timer entry per call").isEqualTo(1);
    run(calls, call);
    time.advance(499, TimeUnit.MILLISECONDS);
    assertThat(stream.closes).isEmpty();
    time.advance(1, TimeUnit.MILLISECONDS);
    assertThat(stream.closes).extracting(CallStatus::kind).containsExactly(CallStatus.Kind.DEADLINE_EXCEEDED);
    assertThat(stream.closes.get(0).message()).contains("test.Call:1.0/echo", "500 ms");
    held.get().respond(EchoService.bytes("late"));
    assertThat(stream.written).isEmpty();
    assertThat(stream.closes).hasSize(1);
    assertThat(heard).containsExactly(ResponseStatus.TIMEOUT);
    assertThat(time.pending()).isZero();
  }

  @Test
  void aCallerThatWentAwayBeforeTheCallRanIsNeverRun() {
    ServerCalls calls = calls();
    RecordingStream stream = new RecordingStream();
    ServerStream.Listener call = start(calls, stream, 1_000);
    call.onCancel(); // the transport saw the stream reset while the call waited for its executor
    run(calls, call);
    assertThat(handled).hasValue(0);
    assertThat(stream.closes).extracting(CallStatus::kind).containsExactly(CallStatus.Kind.CANCELLED);
    assertThat(calls.cancelledCalls()).isEqualTo(1);
    assertThat(time.pending()).isZero();
  }

  @Test
  void aCancellationWhileTheHandlerRunsTellsItsListenersAndItsAnswerIsNotWritten() {
    AtomicInteger told = new AtomicInteger();
    cancelListeners.add(told::incrementAndGet);
    ServerCalls calls = calls();
    RecordingStream stream = new RecordingStream();
    ServerStream.Listener call = start(calls, stream, 1_000);
    run(calls, call);
    assertThat(stream.watching).as("the handler listens: the transport is asked to watch").isTrue();
    stream.open = false;
    call.onCancel();
    assertThat(told).hasValue(1);
    ServerContext context = held.get().context();
    assertThat(context.isCancelled()).isTrue();
    held.get().respond(EchoService.bytes("nobody reads this"));
    assertThat(stream.written).isEmpty();
    assertThat(stream.closes).extracting(CallStatus::kind).containsExactly(CallStatus.Kind.CANCELLED);
    assertThat(heard).containsExactly(ResponseStatus.CONNECTION_CLOSED);
    assertThat(calls.cancelledCalls()).isEqualTo(1);
  }

  @Test
  void aUnaryCallTakesOneMessageAndRefusesASecond() {
    ServerCalls calls = calls();
    RecordingStream stream = new RecordingStream();
    stream.send("hello");
    stream.send("more");
    ServerStream.Listener call = calls.newCall(calls.methods().get(0), stream, time.nanoTime(), 1_000, false, true);
    assertThat(stream.messages.get(1).released).as("the second message's bytes").isTrue();
    assertThat(stream.closes).extracting(CallStatus::code).containsExactly(ResponseStatus.SERVER_DESERIAL_EXCEPTION);
    run(calls, call);
    assertThat(handled).as("a refused call never runs").hasValue(0);
    assertThat(stream.released()).as("every message's bytes, the first one's included").isTrue();
  }

  @Test
  void theCallAsksForWhatItTakesAndIsToldNoMoreOfSeveralMessages() {
    ServerCalls calls = calls();
    RecordingStream stream = new RecordingStream();
    stream.send("one");
    stream.send("two");
    stream.send("three");
    stream.send("four");
    ServerStream.Listener call = calls.newCall(calls.methods().get(0), stream, time.nanoTime(), 1_000, false, true);
    assertThat(stream.started).as("the transport is told its listener first").isTrue();
    assertThat(stream.asked).as("a unary call asks for its message and one more, to refuse it").isEqualTo(2);
    assertThat(stream.told).as("messages told: what was asked for, of four offered").isEqualTo(2);
    assertThat(stream.closes).as("closed early, before the caller's side ended").singleElement()
        .extracting(CallStatus::code).isEqualTo(ResponseStatus.SERVER_DESERIAL_EXCEPTION);
    stream.halfClose(); // the caller's end, after the call closed: nothing more happens
    call.onCancel();
    run(calls, call);
    assertThat(stream.closes).hasSize(1);
    assertThat(handled).hasValue(0);
    assertThat(stream.messages.subList(2, 4)).as("never told, never asked for").allMatch(m -> !m.released);
    assertThat(time.pending()).as("the deadline's timer entry, gone with the close").isZero();
  }

  @Test
  void theCallersEndIsToldAfterItsLastMessageAndOneAnswerClosesTheStream() {
    ServerCalls calls = calls();
    RecordingStream stream = new RecordingStream();
    stream.send("hello");
    ServerStream.Listener call = calls.newCall(calls.methods().get(0), stream, time.nanoTime(), 1_000, false, true);
    assertThat(stream.told).isEqualTo(1);
    assertThat(stream.halfClosedTold).as("the caller's side has not ended").isFalse();
    stream.halfClose();
    assertThat(stream.halfClosedTold).isTrue();
    run(calls, call);
    held.get().respond(EchoService.bytes("world"));
    assertThat(stream.written).containsExactly("world");
    assertThat(stream.closes).extracting(CallStatus::kind).containsExactly(CallStatus.Kind.OK);
    call.onCancel(); // the caller going away after the answer changes nothing
    assertThat(heard).containsExactly(ResponseStatus.SUCCESS);
  }

  @Test
  void aMessageThatDoesNotDecodeIsRefusedBeforeTheHandler() {
    ServerCalls calls = calls();
    RecordingStream stream = new RecordingStream();
    stream.undecodable = true;
    ServerStream.Listener call = start(calls, stream, 1_000);
    run(calls, call);
    assertThat(handled).hasValue(0);
    assertThat(stream.closes).singleElement().satisfies(status -> {
      assertThat(status.kind()).isEqualTo(CallStatus.Kind.REFUSED);
      assertThat(status.code()).isEqualTo(ResponseStatus.SERVER_DESERIAL_EXCEPTION);
    });
    assertThat(heard).as("refused before the interceptors saw it").isEmpty();
    assertThat(stream.released()).isTrue();
  }
}
