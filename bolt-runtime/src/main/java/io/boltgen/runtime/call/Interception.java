package io.boltgen.runtime.call;

import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.ServerContext;
import io.boltgen.runtime.ServerInterceptor;
import io.boltgen.runtime.support.MessageText;
import io.boltgen.runtime.support.RateLimitedLog;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the server interceptors of one call (see {@link ServerInterceptor}) and tells their listeners, once.
 * Only met by a call whose server has interceptors.
 */
final class Interception {

  private static final Logger log = LoggerFactory.getLogger(Interception.class);
  private static final RateLimitedLog listenerFailures = RateLimitedLog.of(log);

  private Interception() {}

  /**
   * Runs {@code interceptors} on {@code call}; returns the listeners to tell (empty when none), or throws the
   * refusal.
   */
  static ServerInterceptor.Listener[] serve(ServerInterceptor[] interceptors, ServerContext call) {
    List<ServerInterceptor.Listener> listeners = new ArrayList<>(2);
    for (ServerInterceptor interceptor : interceptors) {
      ServerInterceptor.Listener listener;
      try {
        listener = interceptor.interceptCall(call);
      } catch (BoltException e) {
        throw new Refusal(e, listeners.toArray(new ServerInterceptor.Listener[0]));
      } catch (RuntimeException e) {
        throw new Refusal(new BoltException(ResponseStatus.SERVER_EXCEPTION, "the interceptor "
            + interceptor.getClass().getName() + " failed on " + call.method().toString() + ": " + e, e),
            listeners.toArray(new ServerInterceptor.Listener[0]));
      }
      if (listener != null) {
        listeners.add(listener);
      }
    }
    return listeners.toArray(new ServerInterceptor.Listener[0]);
  }

  /** An interceptor refused a call; the listeners of those before it are to be told. */
  static final class Refusal extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final transient ServerInterceptor.Listener[] listeners;

    Refusal(BoltException cause, ServerInterceptor.Listener[] listeners) {
      super(cause.getMessage(), cause, false, false);
      this.listeners = listeners;
    }

    BoltException refusal() {
      return (BoltException) getCause();
    }
  }

  /** Tells the listeners, latest first. */
  static void answered(ServerInterceptor.Listener[] listeners, ResponseStatus status, Throwable error,
      long elapsedNanos, String wireName) {
    for (int i = listeners.length - 1; i >= 0; i--) {
      try {
        listeners[i].onComplete(status, error, elapsedNanos);
      } catch (Throwable e) {
        listenerFailures.warn("a call listener of {} threw {}", wireName, MessageText.shorten(e.toString()));
      }
    }
  }

  /** Tells the listeners, latest first, of one of a stream's messages: {@code received}, or sent. */
  static void message(ServerInterceptor.Listener[] listeners, boolean received, String wireName) {
    for (int i = listeners.length - 1; i >= 0; i--) {
      try {
        if (received) {
          listeners[i].onMessageReceived();
        } else {
          listeners[i].onMessageSent();
        }
      } catch (Throwable e) {
        listenerFailures.warn("a call listener of {} threw {}", wireName, MessageText.shorten(e.toString()));
      }
    }
  }

  /** Tells the listeners, latest first, that the handler returned (on the handler's thread). */
  static void handlerReturned(ServerInterceptor.Listener[] listeners, String wireName) {
    for (int i = listeners.length - 1; i >= 0; i--) {
      try {
        listeners[i].onHandlerReturned();
      } catch (Throwable e) {
        listenerFailures.warn("a call listener of {} threw {}", wireName, MessageText.shorten(e.toString()));
      }
    }
  }
}
