package io.boltgen.runtime.internal;

import io.boltgen.runtime.ClientCall;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.MethodType;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * A started {@link ClientCall}'s listener as its unary call tells it: the one response message once the caller
 * asked for one, then the close; a failure (and a oneway call's end) is closed at once, whatever the demand.
 * Exactly one delivery runs, decided by whichever of the answer and the demand comes second (a compare-and-set
 * on one state word), on the call's callback executor, so that the listener runs one method at a time and,
 * unless that executor runs tasks in place, not on an IO thread.
 *
 * @param <R> the response type
 */
final class StreamListener<R> implements StartedListener<R> {

  private static final int ASKED = 1;
  private static final int ANSWERED = 2;
  private static final int DELIVERED = 4;

  @SuppressWarnings("rawtypes") // a field updater cannot name a parameterized type
  private static final AtomicIntegerFieldUpdater<StreamListener> STATE =
      AtomicIntegerFieldUpdater.newUpdater(StreamListener.class, "state");

  private final ClientCall.Listener<? super R> listener;
  private final Executor executor;
  private final MethodDescriptor<?, ?> method;
  private final boolean oneway;
  private volatile int state;
  private R value; // written before ANSWERED is set, read after it is seen
  private Map<String, String> trailers = Map.of(); // likewise

  StreamListener(ClientCall.Listener<? super R> listener, Executor executor, MethodDescriptor<?, ?> method) {
    this.listener = listener;
    this.executor = executor;
    this.method = method;
    this.oneway = method.type() == MethodType.ONEWAY;
  }

  /** The header entries the answer carried, set on the thread that completes the call, before it does. */
  void trailers(Map<String, String> entries) {
    trailers = entries;
  }

  /** The caller asks for messages: delivers the answer if it came first. */
  @Override
  public void request(int count) {
    for (int s = state; (s & ASKED) == 0; s = state) {
      boolean deliver = (s & ANSWERED) != 0 && (s & DELIVERED) == 0;
      if (STATE.compareAndSet(this, s, s | ASKED | (deliver ? DELIVERED : 0))) {
        if (deliver) {
          deliver(value, null);
        }
        return;
      }
    }
  }

  @Override
  public void onComplete(R answer, Throwable error) {
    if (error != null || oneway) { // nothing to wait for demand: close now
      for (int s = state; (s & DELIVERED) == 0; s = state) {
        if (STATE.compareAndSet(this, s, s | DELIVERED)) {
          deliver(null, Callbacks.unwrap(error));
          return;
        }
      }
      return;
    }
    value = answer;
    for (int s = state; (s & (ANSWERED | DELIVERED)) == 0; s = state) {
      boolean deliver = (s & ASKED) != 0;
      if (STATE.compareAndSet(this, s, s | ANSWERED | (deliver ? DELIVERED : 0))) {
        if (deliver) {
          deliver(answer, null);
        }
        return;
      }
    }
  }

  private void deliver(R answer, Throwable error) {
    Map<String, String> ended = error == null ? trailers : Map.of();
    Runnable task = () -> {
      try {
        if (error == null && !oneway) {
          listener.onMessage(answer);
        }
        listener.onClose(error, ended);
      } catch (RuntimeException | Error e) {
        Callbacks.threw("listener", method, e);
      }
    };
    Callbacks.execute(executor, task, "listener", method);
  }
}
