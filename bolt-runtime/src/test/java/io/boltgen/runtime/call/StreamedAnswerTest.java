package io.boltgen.runtime.call;

import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.runtime.DrivenPublisher;
import io.boltgen.runtime.EchoService;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.MethodType;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.RuntimeProvider.ServedService;
import io.boltgen.runtime.ServerCall;
import io.boltgen.runtime.ServerInterceptor;
import io.boltgen.runtime.ServiceDefinition;
import io.boltgen.runtime.internal.FakeTimer;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A server-streaming call over a test transport, on virtual time, with a publisher the test drives: demand is
 * asked for only while the transport is ready and at most {@value StreamedAnswer#AHEAD} ahead, the deadline and
 * the caller's cancellation cancel the subscription, a message that cannot be encoded ends the call, a transport
 * that carries one answer refuses the method, and the interceptors hear the end once.
 */
class StreamedAnswerTest {

  private static final MethodDescriptor<byte[], byte[]> TAIL =
      EchoService.method("test.Log", "tail", 1, MethodType.SERVER_STREAMING, 1_000);
  private static final MethodDescriptor<byte[], byte[]> GET =
      EchoService.method("test.Log", "get", 2, MethodType.REQUEST_RESPONSE, 1_000);

  private final FakeTimer time = new FakeTimer();
  private final ConcurrentLinkedQueue<ResponseStatus> heard = new ConcurrentLinkedQueue<>();
  private final AtomicReference<ServerCall> held = new AtomicReference<>();
  private final AtomicInteger handled = new AtomicInteger();
  private final DrivenPublisher source = new DrivenPublisher();

  private ServerCalls calls() {
    ServiceDefinition service = ServiceDefinition.builder("test.Log", "1.0")
        .method(TAIL, (request, call) -> {
          handled.incrementAndGet();
          held.set(call);
          call.respondStream(source);
        })
        .method(GET, (request, call) -> call.respondStream(source))
        .build();
    ServerInterceptor recorder = call -> (status, error, elapsedNanos) -> heard.add(status);
    return ServerCalls.create(List.of(new ServedService(service, null)), Runnable::run, null, time, time.ticker(),
        List.of(recorder));
  }

  /** A transport that carries streams, unless a test says otherwise. */
  private static RecordingStream streams() {
    RecordingStream stream = new RecordingStream();
    stream.carriesStreams = true;
    return stream;
  }

  private ServerStream.Listener start(ServerCalls calls, int method, RecordingStream stream) {
    stream.send("request");
    stream.halfClose();
    ServerStream.Listener call =
        calls.newCall(calls.methods().get(method), stream, time.nanoTime(), 1_000, false, true);
    ServerCalls.Dispatch dispatch = calls.newDispatch();
    dispatch.start(call);
    dispatch.submit();
    return call;
  }

  @Test
  void demandIsAskedForWhileTheTransportIsReadyAndNeverMoreThanSixteenAhead() {
    RecordingStream stream = streams();
    ServerStream.Listener call = start(calls(), 0, stream);
    assertThat(source.requested).as("asked for at once, the transport being ready").isEqualTo(16);
    source.emit(7);
    assertThat(source.requested).as("more than half the window is still asked for: no more yet").isEqualTo(16);
    source.emit(1);
    assertThat(source.requested).as("topped up to 16 ahead").isEqualTo(24);
    stream.ready = false;
    source.emit(16);
    assertThat(source.requested).as("nothing more while the caller does not read").isEqualTo(24);
    assertThat(stream.written).hasSize(24);
    stream.ready = true;
    call.onReady();
    assertThat(source.requested).isEqualTo(40);
    source.complete();
    assertThat(stream.closes).extracting(CallStatus::kind).containsExactly(CallStatus.Kind.OK);
    assertThat(source.cancelled).as("it completed: nothing to cancel").isFalse();
    assertThat(heard).containsExactly(ResponseStatus.SUCCESS);
    assertThat(time.pending()).isZero();
  }

  @Test
  void theDeadlineCoversTheWholeStreamAndCancelsThePublisher() {
    RecordingStream stream = streams();
    start(calls(), 0, stream);
    source.emit(3);
    time.advance(1_000, TimeUnit.MILLISECONDS);
    assertThat(source.cancelled).isTrue();
    assertThat(stream.closes).extracting(CallStatus::kind).containsExactly(CallStatus.Kind.DEADLINE_EXCEEDED);
    source.emit(1); // a publisher may still emit what it was asked for: dropped
    assertThat(stream.written).hasSize(3);
    assertThat(heard).containsExactly(ResponseStatus.TIMEOUT);
  }

  @Test
  void theCallersCancellationCancelsThePublisher() {
    RecordingStream stream = streams();
    ServerCalls calls = calls();
    ServerStream.Listener call = start(calls, 0, stream);
    source.emit(2);
    stream.open = false;
    call.onCancel();
    assertThat(source.cancelled).isTrue();
    assertThat(stream.closes).extracting(CallStatus::kind).containsExactly(CallStatus.Kind.CANCELLED);
    assertThat(calls.cancelledCalls()).isEqualTo(1);
    assertThat(heard).containsExactly(ResponseStatus.CONNECTION_CLOSED);
    assertThat(held.get().context().isCancelled()).isTrue();
  }

  @Test
  void aFailureMidStreamEndsTheCallAfterItsMessages() {
    RecordingStream stream = streams();
    start(calls(), 0, stream);
    source.emit(2);
    source.subscriber.onError(new IllegalStateException("dry"));
    assertThat(stream.written).hasSize(2);
    assertThat(stream.closes).singleElement().satisfies(s -> {
      assertThat(s.kind()).isEqualTo(CallStatus.Kind.FAILED);
      assertThat(s.cause()).hasMessage("dry");
    });
    assertThat(heard).containsExactly(ResponseStatus.SERVER_EXCEPTION);
  }

  @Test
  void aMessageThatCannotBeEncodedEndsTheCallAndCancelsThePublisher() {
    RecordingStream stream = streams();
    start(calls(), 0, stream);
    stream.unencodable = true;
    source.emit(1);
    assertThat(source.cancelled).isTrue();
    assertThat(stream.closes).extracting(CallStatus::code).containsExactly(ResponseStatus.SERVER_SERIAL_EXCEPTION);
  }

  @Test
  void aTransportThatCarriesOneAnswerRefusesTheMethodBeforeItsHandler() {
    RecordingStream stream = streams();
    stream.carriesStreams = false;
    start(calls(), 0, stream);
    assertThat(handled).hasValue(0);
    assertThat(stream.closes).singleElement().satisfies(s -> {
      assertThat(s.code()).isEqualTo(ResponseStatus.NO_PROCESSOR);
      assertThat(s.message()).isEqualTo(
          "test.Log:1.0/tail streams its answer, which this caller's protocol cannot carry: call it over gRPC,"
          + " Connect's streaming protocol, or Bolt with a boltgen client");
    });
    assertThat(stream.released()).as("the request's bytes").isTrue();
  }

  @Test
  void aUnaryMethodAnsweredWithAPublisherFails() {
    RecordingStream stream = streams();
    start(calls(), 1, stream);
    assertThat(source.subscriber).as("never subscribed").isNull();
    assertThat(stream.closes).singleElement().satisfies(s -> {
      assertThat(s.kind()).isEqualTo(CallStatus.Kind.FAILED);
      assertThat(s.cause()).isInstanceOf(IllegalStateException.class)
          .hasMessage("test.Log:1.0/get does not stream its answer: it is REQUEST_RESPONSE");
    });
  }
}
