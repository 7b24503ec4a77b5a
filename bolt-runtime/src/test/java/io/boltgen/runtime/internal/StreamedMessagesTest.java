package io.boltgen.runtime.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.runtime.ClientCall;
import io.boltgen.runtime.EchoService;
import io.boltgen.runtime.MethodType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A streaming call's messages over Bolt as its listener is told them: at most the window waits unread (one more is
 * the server's fault), each told once asked for, and the end after them.
 */
class StreamedMessagesTest {

  private final List<String> told = new ArrayList<>();

  private StreamedMessages<Integer> messages() {
    ClientCall.Listener<Integer> listener = new ClientCall.Listener<>() {
      @Override
      public void onMessage(Integer message) {
        told.add("message " + message);
      }

      @Override
      public void onClose(Throwable error, Map<String, String> trailers) {
        told.add("close " + (error == null ? "ok" : error.getMessage()));
      }
    };
    return new StreamedMessages<>(listener, Runnable::run,
        EchoService.method("test.Log", "tail", 1, MethodType.SERVER_STREAMING, 5_000));
  }

  @Test
  void theWindowHoldsSixteenUnreadAndTheSeventeenthIsRefused() {
    StreamedMessages<Integer> m = messages();
    for (int i = 0; i < StreamedMessages.WINDOW; i++) {
      assertThat(m.onMessage(i, null, 1)).as("message %d, within the window", i).isTrue();
    }
    assertThat(m.onMessage(16, null, 1)).as("one over the window").isFalse();
    assertThat(told).isEmpty(); // nothing asked for yet
  }

  @Test
  void messagesAreToldAsAskedForThenTheEnd() {
    StreamedMessages<Integer> m = messages();
    m.onMessage(0, null, 1);
    m.onMessage(1, null, 1);
    m.onComplete(null, null);
    assertThat(told).as("the end waits for the messages before it").isEmpty();
    m.request(1);
    assertThat(told).containsExactly("message 0");
    m.request(1);
    assertThat(told).containsExactly("message 0", "message 1", "close ok");
  }

  @Test
  void aFailureIsToldAfterTheMessagesAskedForAndDropsTheRest() {
    StreamedMessages<Integer> m = messages();
    m.request(1);
    m.onMessage(0, null, 1);
    m.onMessage(1, null, 1);
    m.onComplete(null, new IllegalStateException("dry"));
    assertThat(told).containsExactly("message 0", "close dry");
  }
}
