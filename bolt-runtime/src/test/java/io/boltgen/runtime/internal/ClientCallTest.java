package io.boltgen.runtime.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.CallOptions;
import io.boltgen.runtime.ClientCall;
import io.boltgen.runtime.Deadline;
import io.boltgen.runtime.EchoService;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.testing.RawFrames;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The client call as a caller drives it ({@link ClientCall}, from {@code BoltChannel.newCall}), over one Bolt
 * connection on virtual time: its answer is told only once asked for, its failure whatever the demand; it
 * closes exactly once, whoever ends it (the answer, the deadline, the caller's cancel, the connection's close);
 * an answer after the close is dropped; and misuse is refused with a clear message.
 */
class ClientCallTest {

  private static final CallOptions OPTIONS = CallOptions.DEFAULT.withTimeoutMillis(750);

  /** Everything the call told its listener, in order. */
  private static final class Recording implements ClientCall.Listener<byte[]> {
    final List<String> events = new ArrayList<>();
    Throwable error;

    @Override
    public void onMessage(byte[] message) {
      events.add("message " + EchoService.string(message));
    }

    @Override
    public void onClose(Throwable failure, Map<String, String> trailers) {
      error = failure;
      events.add(failure == null ? "closed " + trailers : "failed " + failure.getClass().getSimpleName());
    }
  }

  private static byte[] answer(byte[] request, int status, Map<String, String> headers, String text) {
    return RawFrames.response(RawFrames.PROTOCOL_V2, (byte) 2, RawFrames.SWITCH_CRC, RawFrames.requestId(request),
        RawFrames.CODEC_PROTOBUF, status, "", headers, EchoService.bytes(text));
  }

  /** A started echo call of {@code text}, half-closed: its request is on the wire. */
  private static ClientCall<byte[], byte[]> sentEcho(VirtualTime client, Recording listener, String text) {
    ClientCall<byte[], byte[]> call = client.connection.channel().newCall(EchoService.ECHO, OPTIONS);
    call.start(listener);
    call.sendMessage(EchoService.bytes(text));
    call.halfClose();
    return call;
  }

  @Test
  void theAnswerIsToldOnlyOnceAskedForThenTheCallClosesWithItsTrailers() {
    try (VirtualTime client = VirtualTime.client(0, 0, 0)) {
      Recording listener = new Recording();
      ClientCall<byte[], byte[]> call = client.connection.channel().newCall(EchoService.ECHO, OPTIONS);
      call.start(listener);
      call.sendMessage(EchoService.bytes("hi"));
      assertThat(client.sent()).as("nothing leaves before the half-close").isNull();
      assertThat(call.isReady()).isTrue();
      call.halfClose();
      assertThat(call.isReady()).as("a unary call carries nothing more").isFalse();
      byte[] request = client.sent();
      assertThat(ByteBuffer.wrap(request).getInt(12)).as("the V2 timeout field").isEqualTo(750);

      client.receive(answer(request, 0, Map.of("served-by", "b"), "hello"));
      assertThat(listener.events).as("no demand, nothing told").isEmpty();
      call.request(1);
      assertThat(listener.events).containsExactly("message hello", "closed {served-by=b}");
      call.request(5);
      client.advance(1000); // its deadline passes: it closed already
      assertThat(listener.events).hasSize(2);
    }
  }

  @Test
  void demandGivenBeforeTheAnswerTellsItOnArrival() {
    try (VirtualTime client = VirtualTime.client(0, 0, 0)) {
      Recording listener = new Recording();
      ClientCall<byte[], byte[]> call = client.connection.channel().newCall(EchoService.ECHO, OPTIONS);
      call.start(listener);
      call.request(1);
      call.sendMessage(EchoService.bytes("early"));
      call.halfClose();
      client.receive(answer(client.sent(), 0, Map.of(), "ready"));
      assertThat(listener.events).containsExactly("message ready", "closed {}");
    }
  }

  @Test
  void aFailureClosesTheCallWithoutDemand() {
    try (VirtualTime client = VirtualTime.client(0, 0, 0)) {
      Recording listener = new Recording();
      sentEcho(client, listener, "boom");
      client.receive(answer(client.sent(), ResponseStatus.SERVER_EXCEPTION.code(), Map.of(), ""));
      assertThat(listener.events).containsExactly("failed BoltException");
      assertThat(((BoltException) listener.error).status()).isEqualTo(ResponseStatus.SERVER_EXCEPTION);
    }
  }

  @Test
  void theDeadlineClosesTheCallOnceAndALateAnswerIsDropped() {
    try (VirtualTime client = VirtualTime.client(0, 0, 0)) {
      Recording listener = new Recording();
      ClientCall<byte[], byte[]> call = sentEcho(client, listener, "slow");
      byte[] request = client.sent();
      call.request(1);
      client.advance(749);
      assertThat(listener.events).isEmpty();
      client.advance(1);
      assertThat(listener.events).containsExactly("failed BoltException");
      assertThat(((BoltException) listener.error).status()).isEqualTo(ResponseStatus.TIMEOUT);
      client.receive(answer(request, 0, Map.of(), "late"));
      assertThat(listener.events).as("closed once; the late answer is dropped").hasSize(1);
    }
  }

  @Test
  void theCallerCancelsAndTheConnectionServesTheNextCall() {
    try (VirtualTime client = VirtualTime.client(0, 0, 0)) {
      Recording cancelled = new Recording();
      ClientCall<byte[], byte[]> call = sentEcho(client, cancelled, "never mind");
      byte[] request = client.sent();
      IllegalStateException why = new IllegalStateException("the user left");
      call.cancel("enough", why);
      assertThat(cancelled.events).containsExactly("failed CancellationException");
      assertThat(cancelled.error).hasMessage("enough").hasCause(why);
      call.cancel("again", null);
      call.request(1);
      client.receive(answer(request, 0, Map.of(), "late"));
      assertThat(cancelled.events).as("closed once; the late answer is dropped").hasSize(1);

      Recording next = new Recording();
      sentEcho(client, next, "next").request(1);
      client.receive(answer(client.sent(), 0, Map.of(), "served"));
      assertThat(next.events).containsExactly("message served", "closed {}");
    }
  }

  @Test
  void theConnectionClosingClosesTheCall() {
    try (VirtualTime client = VirtualTime.client(0, 0, 0)) {
      Recording listener = new Recording();
      sentEcho(client, listener, "hold on");
      client.channel.close().syncUninterruptibly();
      client.channel.runPendingTasks();
      assertThat(listener.events).containsExactly("failed BoltException");
      assertThat(((BoltException) listener.error).status()).isEqualTo(ResponseStatus.CONNECTION_CLOSED);
    }
  }

  @Test
  void aCallRefusedWhenMadeIsClosedAsItStartsAndSendsNothing() {
    try (VirtualTime client = VirtualTime.client(0, 0, 0)) {
      Deadline passed = Deadline.after(-1, TimeUnit.MILLISECONDS);
      ClientCall<byte[], byte[]> call = client.connection.channel()
          .newCall(EchoService.ECHO, CallOptions.DEFAULT.withDeadline(passed));
      Recording listener = new Recording();
      call.start(listener);
      assertThat(listener.events).containsExactly("failed BoltException");
      assertThat(listener.error).hasMessageContaining("its deadline had passed when it started");
      call.sendMessage(EchoService.bytes("too late"));
      call.halfClose();
      assertThat(client.sent()).isNull();
      assertThat(listener.events).hasSize(1);
    }
  }

  @Test
  void aOnewayCallClosesOnceItsFrameIsQueuedWithoutDemand() {
    try (VirtualTime client = VirtualTime.client(0, 0, 0)) {
      Recording listener = new Recording();
      ClientCall<byte[], byte[]> call = client.connection.channel().newCall(EchoService.SINK, OPTIONS);
      call.start(listener);
      call.sendMessage(EchoService.bytes("fire"));
      call.halfClose();
      assertThat(listener.events).containsExactly("closed {}");
      assertThat(RawFrames.type(client.sent())).isEqualTo(RawFrames.TYPE_ONEWAY);
    }
  }

  @Test
  void misuseIsRefusedSayingWhat() {
    try (VirtualTime client = VirtualTime.client(0, 0, 0)) {
      ClientCall<byte[], byte[]> call = client.connection.channel().newCall(EchoService.ECHO, OPTIONS);
      assertThatThrownBy(() -> call.sendMessage(EchoService.bytes("x"))).isInstanceOf(IllegalStateException.class)
          .hasMessage("the call of test.Echo:1.0/echo was not started");
      assertThatThrownBy(() -> call.request(1)).hasMessage("the call of test.Echo:1.0/echo was not started");
      call.start(new Recording());
      assertThatThrownBy(() -> call.start(new Recording()))
          .hasMessage("the call of test.Echo:1.0/echo was started already");
      assertThatThrownBy(() -> call.request(0)).isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(call::halfClose)
          .hasMessage("the call of test.Echo:1.0/echo was half-closed without its request message");
      call.sendMessage(EchoService.bytes("one"));
      assertThatThrownBy(() -> call.sendMessage(EchoService.bytes("two")))
          .hasMessage("the call of test.Echo:1.0/echo carries one request message");
      call.halfClose();
      assertThatThrownBy(call::halfClose).hasMessage("the call of test.Echo:1.0/echo was half-closed already");
      assertThatThrownBy(() -> call.sendMessage(EchoService.bytes("three")))
          .hasMessage("the call of test.Echo:1.0/echo was half-closed already");
      assertThat(client.sent()).as("the one request went out").isNotNull();
      assertThat(client.sent()).isNull();
      call.cancel("done", null);
    }
  }
}
