package io.boltgen.gateway;

import io.boltgen.runtime.BoltChannel;
import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.CallOptions;
import io.boltgen.runtime.Deadline;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.MethodType;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.ServerCall;
import io.boltgen.runtime.ServerContext;
import io.boltgen.runtime.ServiceInvoker;
import io.boltgen.runtime.support.RateLimitedLog;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a gateway call is forwarded: the {@link ServiceInvoker} of one service's forwarded methods, sending
 * each request's protobuf bytes over the service's cluster channel with what is left of the caller's
 * deadline and the trace headers it sent, and answering with whatever comes back (bytes, a Bolt status, a
 * declared exception; a stream's messages each way, as the other side reads them, {@link ForwardedStream}). It runs
 * on the IO thread that read the request and never blocks: the answer is written from the thread that reads the
 * instance's response.
 *
 * <p>Thread-safe: stateless but for the gateway's count of calls in flight.
 */
final class Forwarder implements ServiceInvoker {

  private static final Logger log = LoggerFactory.getLogger(Forwarder.class);
  private static final RateLimitedLog unavailable = RateLimitedLog.of(log);

  private final String target;
  private final BoltChannel channel;
  private final List<String> forwardedHeaders;
  private final InFlight inFlight;

  Forwarder(String target, BoltChannel channel, List<String> forwardedHeaders, InFlight inFlight) {
    this.target = target;
    this.channel = channel;
    this.forwardedHeaders = List.copyOf(forwardedHeaders);
    this.inFlight = inFlight;
  }

  @Override
  @SuppressWarnings("FutureReturnValueIgnored") // the stage below catches and answers every outcome itself
  public void invoke(int methodCode, Object request, ServerCall call) {
    ServerContext context = call.context();
    @SuppressWarnings("unchecked") // every method of this service was forwarded as bytes (ForwardedMethods)
    MethodDescriptor<byte[], byte[]> method = (MethodDescriptor<byte[], byte[]>) context.method();
    if (!inFlight.enter()) {
      call.fail(new BoltException(ResponseStatus.SERVER_THREADPOOL_BUSY,
          "the gateway is closing: send " + method.httpPath() + " again"));
      return;
    }
    // the forward is the caller's call: its deadline (Connect-Timeout-Ms, else the method's timeout, from the
    // request's arrival) stands in for the method's timeout; past it, the forward fails with TIMEOUT, sending nothing
    Deadline deadline = context.deadline();
    CallOptions options = deadline != null ? CallOptions.DEFAULT.withDeadline(deadline) : CallOptions.DEFAULT;
    Map<String, String> headers = context.headers();
    for (String name : forwardedHeaders) {
      String value = headers.get(name);
      if (value != null) {
        options = options.withHeader(name, value);
      }
    }
    if (method.type().streamsRequests() || method.type().streamsAnswers()) {
      // a stream over Bolt to one instance, its messages each way as the other side reads, in flight until it ends
      forwardStream(method, request, options, call);
      return;
    }
    byte[] body = (byte[]) request;
    if (method.type() == MethodType.ONEWAY) {
      try {
        channel.invokeOneway(method, body, options);
      } finally {
        inFlight.exit();
      }
      return; // the HTTP call answers once this returns
    }
    try {
      channel.invokeFuture(method, body, options).whenComplete((answer, error) -> {
        try {
          if (error == null) {
            call.respond(answer);
          } else {
            Throwable cause = error instanceof CompletionException && error.getCause() != null
                ? error.getCause() : error;
            note(method, context, cause);
            call.fail(cause);
          }
        } finally {
          inFlight.exit();
        }
      });
    } catch (RuntimeException e) { // refused at once: the client closed
      inFlight.exit();
      throw e;
    }
  }

  /** Forwards a streaming call: its request is bytes, or the caller's stream of them (a publisher of bytes). */
  @SuppressWarnings({"unchecked", "FutureReturnValueIgnored"}) // bytes (ForwardedMethods); the stage only counts
  private void forwardStream(MethodDescriptor<byte[], byte[]> method, Object request, CallOptions options,
      ServerCall call) {
    switch (method.type()) {
      case SERVER_STREAMING -> call.respondStream(new ForwardedStream(channel.invokeStream(method, (byte[]) request,
          options), inFlight));
      case BIDI_STREAMING -> call.respondStream(new ForwardedStream(channel.invokeBidiStream(method,
          (Flow.Publisher<byte[]>) request, options), inFlight));
      default -> call.respondWith(channel.invokeClientStream(method, (Flow.Publisher<byte[]>) request, options)
          .whenComplete((answer, error) -> inFlight.exit()));
    }
  }

  /** One rate-limited line for calls no instance could take (the caller gets 503). */
  private void note(MethodDescriptor<?, ?> method, ServerContext context, Throwable cause) {
    if (cause instanceof BoltException bolt && isUnavailable(bolt.status())) {
      unavailable.warn("{} for request id {} from {} found no instance of {} to take it: {}", method.httpPath(),
          context.requestId(), context.remoteAddress(), target, bolt.getMessage());
    } else if (log.isDebugEnabled()) {
      log.debug("{} for request id {} from {} failed: {}", method.httpPath(), context.requestId(),
          context.remoteAddress(), cause.toString());
    }
  }

  private static boolean isUnavailable(ResponseStatus status) {
    return status == ResponseStatus.SERVER_THREADPOOL_BUSY || status == ResponseStatus.ERROR_COMM
        || status == ResponseStatus.CONNECTION_CLOSED || status == ResponseStatus.CLIENT_SEND_ERROR;
  }

  /**
   * The gateway's calls in flight: counted so that closing can wait for them. Counting takes no lock (it runs
   * on every request); only the last call out during a close takes the monitor, to wake the closer.
   */
  static final class InFlight {
    private final AtomicInteger calls = new AtomicInteger();
    private volatile boolean closing;

    /** Counts a call in, unless the gateway is closing. */
    boolean enter() {
      if (closing) {
        return false;
      }
      calls.incrementAndGet();
      if (closing) { // closed meanwhile: the closer may already have seen none in flight
        exit();
        return false;
      }
      return true;
    }

    /** A call was answered. */
    void exit() {
      if (calls.decrementAndGet() == 0 && closing) {
        synchronized (this) {
          notifyAll();
        }
      }
    }

    /** Calls in flight now. */
    int calls() {
      return calls.get();
    }

    /**
     * Refuses new calls, then waits until every call in flight was answered or {@code timeoutMillis} passed;
     * returns the calls still in flight.
     */
    synchronized int closeAndAwait(long timeoutMillis) throws InterruptedException {
      closing = true;
      long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
      while (calls.get() > 0) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          break;
        }
        TimeUnit.NANOSECONDS.timedWait(this, left);
      }
      return calls.get();
    }
  }
}
