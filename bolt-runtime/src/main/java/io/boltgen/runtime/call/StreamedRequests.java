package io.boltgen.runtime.call;

import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.support.MessageText;
import java.util.Queue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The caller's messages of a client-streaming or bidirectional call, as the {@link Flow.Publisher} its handler is
 * given for a request. Its one subscriber's demand is the call's: the transport is asked for at most
 * {@value #AHEAD} messages beyond what the subscriber took (and never more than it asked for), so a handler that
 * reads slowly leaves the caller's messages with the transport, whose flow control holds the caller back. Each
 * message is decoded, and told, on the call's executor; the caller's half-close is {@code onComplete}; a message
 * that does not decode refuses the call and is the subscriber's {@code onError}; when the call ends first (its
 * answer, the deadline, the caller's cancellation) the subscriber is told {@code onError} with a
 * {@link CancellationException} and what was held is released.
 *
 * <p>Threads: the transport tells messages and the half-close on its IO thread; the subscriber asks from any
 * thread; every signal to the subscriber, every decode and every request to the transport happens in one drain
 * at a time, on the call's executor (Reactive Streams, rule 1.3).
 */
final class StreamedRequests implements Flow.Publisher<Object>, Flow.Subscription {

  /** The most of the caller's messages asked for and not yet taken by the subscriber. */
  static final int AHEAD = 16;

  private final ServedCall call;
  private final Executor executor;
  private final Queue<ServerStream.Message> arrived = new ConcurrentLinkedQueue<>();
  private final AtomicInteger drains = new AtomicInteger();
  private final AtomicBoolean subscribed = new AtomicBoolean();
  // what the subscriber asked for and was not yet told (Long.MAX_VALUE: unbounded)
  private final AtomicLong demand = new AtomicLong();
  // set once onSubscribe returned: signals wait for it
  private volatile Flow.Subscriber<? super Object> subscriber;
  private volatile boolean halfClosed;
  // the subscriber cancelled, or the call ended: nothing more is told but the end, what arrives is released
  private volatile boolean stopped;
  private volatile String stopWhy;
  private volatile Throwable badDemand;
  // drain only: messages asked of the transport and not yet told; whether the subscriber heard its end
  private int outstanding;
  private boolean ended;

  StreamedRequests(ServedCall call, Executor executor) {
    this.call = call;
    this.executor = executor;
  }

  @Override
  public void subscribe(Flow.Subscriber<? super Object> s) {
    if (!subscribed.compareAndSet(false, true)) {
      s.onSubscribe(new Flow.Subscription() {
        @Override
        public void request(long n) {}

        @Override
        public void cancel() {}
      });
      s.onError(new IllegalStateException("the messages of " + call.servedMethod() + " have one subscriber: the"
          + " call's handler subscribed twice"));
      return;
    }
    try {
      s.onSubscribe(this);
    } catch (RuntimeException e) {
      call.fail(e); // rule 2.13 forbids it; the call ends all the same, and what arrives is released
      return;
    }
    subscriber = s;
    drainSoon();
  }

  @Override
  public void request(long n) {
    if (n <= 0) {
      badDemand = new IllegalArgumentException("a subscriber of " + call.servedMethod() + "'s messages asked for "
          + n + " (rule 3.9)");
      stopped = true;
    } else {
      demand.getAndAccumulate(n, (had, more) -> had + more < 0 ? Long.MAX_VALUE : had + more);
    }
    drainSoon();
  }

  @Override
  public void cancel() {
    stop(null);
  }

  // ------------------------------------------------------------------ the call's side

  /** One of the caller's messages, asked for (IO thread). */
  void onMessage(ServerStream.Message message) {
    arrived.add(message);
    drainSoon();
  }

  /** The caller sends no more (IO thread): once the subscriber took what arrived, it completes. */
  void onHalfClose() {
    halfClosed = true;
    drainSoon();
  }

  /** The call ended (any thread): the subscriber is told, unless it is done, and what was held is released. */
  void close() {
    stop("the call of " + call.servedMethod() + " ended before its handler read all its caller's messages");
  }

  private void stop(String why) {
    if (why != null && stopWhy == null) {
      stopWhy = why;
    }
    stopped = true;
    drainSoon();
  }

  // ------------------------------------------------------------------ the drain (one at a time, on the executor)

  private void drainSoon() {
    if (drains.getAndIncrement() != 0) {
      return; // the running drain goes round again
    }
    try {
      executor.execute(this::drain);
    } catch (RuntimeException e) {
      // the executor is full (or broken): the call is refused unless it ended already, and this drain (now
      // stopped) releases what is held, here
      stop(null);
      if (!call.isClosed()) {
        call.refuse(ResponseStatus.SERVER_THREADPOOL_BUSY, "the server's executor for " + call.servedMethod()
            + " is full: it could not take the caller's messages", null);
      }
      drain();
    }
  }

  private void drain() {
    int missed = 1;
    while (true) {
      try {
        drainOnce();
      } catch (Throwable e) {
        // a subscriber that throws breaks rule 2.13: the call ends, and what is held is released
        stopped = true;
        ended = true;
        releaseArrived();
        call.fail(e);
      }
      missed = drains.addAndGet(-missed);
      if (missed == 0) {
        return;
      }
    }
  }

  private void drainOnce() {
    Flow.Subscriber<? super Object> s = subscriber;
    if (stopped) {
      releaseArrived();
      if (s != null && !ended) {
        ended = true; // a subscriber that cancelled is told nothing more
        Throwable bad = badDemand;
        if (bad != null) {
          s.onError(bad);
          call.fail(bad);
        } else if (stopWhy != null) {
          s.onError(new CancellationException(stopWhy));
        }
      }
      return;
    }
    if (s == null || ended) {
      return;
    }
    long told = 0;
    long wanted = demand.get();
    ServerStream.Message m;
    while (told < wanted && !stopped && (m = arrived.poll()) != null) {
      outstanding--;
      Object message;
      try {
        message = m.decode();
      } catch (BoltException e) {
        refuseUndecodable(s, e.status(), e.getMessage(), e);
        return;
      } catch (RuntimeException | StackOverflowError e) {
        refuseUndecodable(s, ResponseStatus.SERVER_DESERIAL_EXCEPTION, "could not decode a request of "
            + call.servedMethod() + ": " + MessageText.shorten(String.valueOf(e.getMessage())), e);
        return;
      }
      call.message(true);
      s.onNext(message);
      told++;
    }
    if (told > 0 && wanted != Long.MAX_VALUE) {
      wanted = demand.addAndGet(-told);
    }
    if (stopped) {
      return; // the next round tells the end
    }
    if (halfClosed && arrived.isEmpty()) {
      ended = true;
      s.onComplete();
      return;
    }
    askTransport(wanted);
  }

  /** Asks the transport for the subscriber's demand, up to {@link #AHEAD} held, once half of it was taken. */
  private void askTransport(long wanted) {
    int window = (int) Math.min(wanted, AHEAD);
    if (halfClosed || outstanding > window / 2) {
      return;
    }
    int more = window - outstanding;
    if (more > 0) {
      outstanding += more;
      call.stream.request(more);
    }
  }

  private void refuseUndecodable(Flow.Subscriber<? super Object> s, ResponseStatus status, String why, Throwable e) {
    stopped = true;
    ended = true;
    releaseArrived();
    BoltException refusal = e instanceof BoltException b ? b : new BoltException(status, why, e);
    call.refuse(status, why, e instanceof BoltException ? e.getCause() : e); // first: the handler's answer is late
    s.onError(refusal);
  }

  private void releaseArrived() {
    ServerStream.Message m;
    while ((m = arrived.poll()) != null) {
      m.release();
    }
  }
}
