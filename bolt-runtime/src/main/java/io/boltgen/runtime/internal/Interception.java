package io.boltgen.runtime.internal;

import io.boltgen.runtime.support.MessageText;
import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.CallOptions;
import io.boltgen.runtime.ClientInterceptor;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.support.RateLimitedLog;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the client interceptors of one call (see {@link ClientInterceptor}) and tells their listeners the
 * outcome once. Only built when an endpoint has interceptors: a call without them never meets this class.
 */
final class Interception {

  private static final Logger log = LoggerFactory.getLogger(Interception.class);
  private static final RateLimitedLog listenerFailures = RateLimitedLog.of(log);

  private Interception() {}

  /** What a sending side's interceptors made of a call: its options, a refusal, and whom to tell. */
  static final class Outgoing implements ClientInterceptor.Call {
    private static final VarHandle COMPLETED;

    static {
      try {
        COMPLETED = MethodHandles.lookup().findVarHandle(Outgoing.class, "completed", boolean.class);
      } catch (ReflectiveOperationException e) {
        throw new ExceptionInInitializerError(e);
      }
    }

    private final MethodDescriptor<?, ?> method;
    private final SocketAddress remoteAddress;
    private final long startNanos;
    private final List<ClientInterceptor.Listener> listeners = new ArrayList<>(2);
    // whether the listeners were told the call's end (set once, by COMPLETED: no object per call for it)
    private volatile boolean completed;
    // a streaming call's caller started listening: its end is told once the caller heard it (MessageEvents)
    private volatile boolean deferred;
    private CallOptions options;
    private BoltException refusal;
    private boolean open = true;

    /** Runs {@code interceptors} on the call of {@code method} with {@code options}. */
    Outgoing(ClientInterceptor[] interceptors, MethodDescriptor<?, ?> method, CallOptions options,
        SocketAddress remoteAddress, long startNanos) {
      this.method = method;
      this.options = options;
      this.remoteAddress = remoteAddress;
      this.startNanos = startNanos;
      for (ClientInterceptor interceptor : interceptors) {
        try {
          ClientInterceptor.Listener listener = interceptor.interceptCall(this);
          if (listener != null) {
            listeners.add(listener);
          }
        } catch (BoltException e) {
          refusal = e;
          break;
        } catch (RuntimeException e) {
          refusal = new BoltException(ResponseStatus.CLIENT_SEND_ERROR, "the interceptor "
              + interceptor.getClass().getName() + " failed on " + method.toString() + ": " + e, e);
          break;
        }
      }
      open = false;
    }

    @Override
    public MethodDescriptor<?, ?> method() {
      return method;
    }

    @Override
    public CallOptions options() {
      return options;
    }

    @Override
    public void header(String key, String value) {
      if (!open) {
        throw new IllegalStateException("headers can only be added while the call is intercepted");
      }
      options = options.withHeader(key, value);
    }

    @Override
    public SocketAddress remoteAddress() {
      return remoteAddress;
    }

    /** The options the call goes on with. */
    CallOptions finalOptions() {
      return options;
    }

    /** The refusal of an interceptor, or {@code null}. */
    BoltException refusal() {
      return refusal;
    }

    boolean hasListeners() {
      return !listeners.isEmpty();
    }

    /** A message of a streaming call left for the server: every listener is told, in order. */
    void messageSent() {
      tellEach(ClientInterceptor.Listener::onMessageSent);
    }

    /** A message of a streaming call's answer reached its caller: every listener is told, in order. */
    void messageReceived() {
      tellEach(ClientInterceptor.Listener::onMessageReceived);
    }

    private void tellEach(java.util.function.Consumer<ClientInterceptor.Listener> event) {
      if (completed) {
        return; // the listeners heard the call's end: nothing comes after it
      }
      for (ClientInterceptor.Listener listener : listeners) {
        try {
          event.accept(listener);
        } catch (Throwable e) {
          listenerFailures.warn("a call listener of {} threw {}", method.toString(), MessageText.shorten(e.toString()));
        }
      }
    }

    /**
     * The call's end is told by its caller's side ({@link MessageEvents}, once the caller heard it), not when the call
     * completes: a streaming call's caller may still be told messages the call held.
     */
    void deferCompletion() {
      deferred = true;
    }

    /** Whether the end is told by the caller's side ({@link #deferCompletion}). */
    boolean completionDeferred() {
      return deferred;
    }

    /**
     * Tells every listener, latest first, once (a second call is ignored); a listener's failure is logged and does not
     * stop the others.
     */
    void complete(Throwable error, long nowNanos) {
      if (!COMPLETED.compareAndSet(this, false, true)) {
        return;
      }
      ResponseStatus status = statusOf(error);
      Throwable shown = unwrap(error);
      for (int i = listeners.size() - 1; i >= 0; i--) {
        try {
          listeners.get(i).onComplete(status, shown, nowNanos - startNanos);
        } catch (Throwable e) {
          listenerFailures.warn("a call listener of {} threw {}", method.toString(), MessageText.shorten(e.toString()));
        }
      }
    }
  }

  /** The status a caller's outcome stands for. */
  static ResponseStatus statusOf(Throwable error) {
    Throwable e = unwrap(error);
    if (e == null) {
      return ResponseStatus.SUCCESS;
    }
    if (e instanceof BoltException b) {
      return b.status();
    }
    if (e.getCause() instanceof BoltException b) {
      return b.status(); // a declared exception rebuilt from the server's answer
    }
    return ResponseStatus.ERROR;
  }

  private static Throwable unwrap(Throwable error) {
    return error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
  }
}
