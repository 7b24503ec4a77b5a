package io.boltgen.runtime.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.CallOptions;
import io.boltgen.runtime.EchoService;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.testing.RawFrames;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The call table of a connection: more calls in flight than its ring has slots (the rest wait in its
 * overflow map), answers in any order, each reaching its own call, late and unknown answers dropped,
 * deadlines of ring and overflow calls alike, and every waiting call failed when the connection closes.
 */
class CallTableTest {

  private static final int CALLS = CallTable.RING * 2 + 100;

  private static CompletableFuture<byte[]> echo(VirtualTime client, String text, long timeoutMillis) {
    return client.connection.channel().invokeFuture(EchoService.ECHO, EchoService.bytes(text),
        CallOptions.DEFAULT.withTimeoutMillis(timeoutMillis));
  }

  private static byte[] answer(int requestId, String text) {
    return RawFrames.response(RawFrames.PROTOCOL_V2, (byte) 2, RawFrames.SWITCH_CRC, requestId,
        RawFrames.CODEC_PROTOBUF, 0, "", Map.of(), EchoService.bytes(text));
  }

  @Test
  void moreCallsThanSlotsEachGetTheirOwnAnswerInAnyOrder() throws Exception {
    try (VirtualTime client = VirtualTime.client(0, 1, 1)) {
      List<CompletableFuture<byte[]>> calls = new ArrayList<>();
      List<Integer> ids = new ArrayList<>();
      for (int i = 0; i < CALLS; i++) {
        calls.add(echo(client, "call " + i, 10_000));
        ids.add(RawFrames.requestId(client.sent()));
      }
      assertThat(client.connection.pendingCalls()).isEqualTo(CALLS);
      assertThat(client.connection.pendingSnapshot()).hasSize(CALLS);

      List<Integer> order = new ArrayList<>();
      for (int i = 0; i < CALLS; i++) {
        order.add(i);
      }
      Collections.shuffle(order, new Random(14));
      for (int i : order) {
        client.receive(answer(ids.get(i), "answer " + i));
      }
      for (int i = 0; i < CALLS; i++) {
        assertThat(EchoService.string(calls.get(i).get())).isEqualTo("answer " + i);
      }
      assertThat(client.connection.pendingCalls()).isZero();
      assertThat(client.connection.pendingSnapshot()).isEmpty();

      // an answer for a call that already had one, and one for an id never used: dropped, connection kept
      client.receive(answer(ids.get(0), "again"));
      client.receive(answer(ids.get(CALLS - 1) + CallTable.RING, "unknown"));
      assertThat(client.channel.isOpen()).isTrue();
      assertThat(client.connection.pendingCalls()).isZero();
    }
  }

  @Test
  void callsInTheRingAndInTheOverflowTimeOutAtTheirDeadlinesAndTheRestFailWhenTheConnectionCloses()
      throws Exception {
    try (VirtualTime client = VirtualTime.client(0, 1, 1)) {
      List<CompletableFuture<byte[]>> quick = new ArrayList<>();
      List<CompletableFuture<byte[]>> slow = new ArrayList<>();
      for (int i = 0; i < CALLS; i++) {
        // alternate: ring slots and overflow entries hold both kinds
        (i % 2 == 0 ? quick : slow).add(echo(client, "call " + i, i % 2 == 0 ? 100 : 60_000));
        client.sent();
      }
      client.advance(99);
      assertThat(quick).noneMatch(CompletableFuture::isDone);
      client.advance(1);
      for (CompletableFuture<byte[]> call : quick) {
        assertThat(cause(call).status()).isEqualTo(ResponseStatus.TIMEOUT);
      }
      assertThat(slow).noneMatch(CompletableFuture::isDone);
      assertThat(client.connection.pendingCalls()).isEqualTo(slow.size());

      client.connection.close();
      client.channel.runPendingTasks();
      for (CompletableFuture<byte[]> call : slow) {
        assertThat(cause(call).status()).isEqualTo(ResponseStatus.CONNECTION_CLOSED);
      }
      assertThat(client.connection.pendingCalls()).isZero();
      assertThat(client.time.pending()).as("the sweep is disarmed").isZero();
    }
  }

  private static BoltException cause(CompletableFuture<?> call) {
    assertThat(call).isCompletedExceptionally();
    try {
      call.getNow(null);
      throw new AssertionError("not failed");
    } catch (java.util.concurrent.CompletionException e) {
      return (BoltException) e.getCause();
    }
  }
}
