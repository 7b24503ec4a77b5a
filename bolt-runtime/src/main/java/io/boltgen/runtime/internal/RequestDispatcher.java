package io.boltgen.runtime.internal;

import io.boltgen.runtime.ExecutorSelector;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.support.RateLimitedLog;
import io.netty.util.Timeout;
import io.netty.util.Timer;
import io.netty.util.TimerTask;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes the requests of each read to their methods' executors, on the IO thread. The executor is the
 * selector's choice, else the service's, else the endpoint's default. A full executor is answered with
 * SERVER_THREADPOOL_BUSY at once, an unknown className with NO_PROCESSOR. Never runs a handler here
 * unless the executor is a direct one.
 *
 * <p>How requests become tasks: requests of a slow method (see {@link MethodEntry#isSlow()}) get one task
 * each, so they run in parallel on as many threads as the executor has. Requests of quick methods that
 * arrived in the same read and go to the same executor share one task (up to {@value #MAX_BATCH} of
 * them), which runs them one after the other and writes all their answers at once: one queue hand-off,
 * one thread wake-up and one flush instead of one per request, which is most of what a business executor
 * costs. Each request still checks its own deadline when its turn comes, and a shared task that gets
 * stuck in a handler hands its remaining requests out one by one.
 */
final class RequestDispatcher implements RequestHandler {

  private static final Logger log = LoggerFactory.getLogger(RequestDispatcher.class);
  private static final RateLimitedLog unknownClassNames = RateLimitedLog.of(log);
  private static final RateLimitedLog selectorFailures = RateLimitedLog.of(log);
  private static final RateLimitedLog watchdogFailures = RateLimitedLog.of(log);
  private static final RateLimitedLog dispatchFailures = RateLimitedLog.of(log);

  /** The most requests one shared task runs. */
  static final int MAX_BATCH = 32;

  /** How long a shared task may be stuck in one handler before its other requests run elsewhere. */
  static final long STALL_MILLIS = 10;

  private final MethodTable methods;
  private final Executor defaultExecutor;
  private final ExecutorSelector selector;
  private final Timer timer;

  /** A dispatcher over {@code methods}; {@code selector} may be {@code null}; {@code timer} is the process's. */
  RequestDispatcher(MethodTable methods, Executor defaultExecutor, ExecutorSelector selector, Timer timer) {
    this.methods = methods;
    this.defaultExecutor = defaultExecutor;
    this.selector = selector;
    this.timer = timer;
  }

  @Override
  public void onRequests(BoltConnection connection, List<BoltFrame> frames) {
    // quick requests wait here, per executor, until the read is done or a batch is full
    Batch open = null;
    Batch other = null; // a second executor in the same read is rare; more than two rarer still
    int n = frames.size();
    connection.requestsOpened(n); // every frame counts until it is answered, refused or dropped
    int i = 0;
    try {
      for (; i < n; i++) {
        BoltFrame frame = frames.get(i);
        Map<String, String> headers = null;
        MethodEntry entry;
        if (methods.servesSofaRpc() && MethodTable.isSofaRpc(frame)) {
          headers = sofaRpcHeaders(frame); // SOFARPC names the method in the header: read it once, for the call too
          entry = headers == null ? null : methods.lookupSofaRpc(headers);
        } else {
          entry = methods.lookup(frame);
        }
        if (entry == null) {
          refuseUnknown(connection, frame);
          continue;
        }
        Executor executor = entry.executor() != null ? entry.executor() : defaultExecutor;
        if (selector != null) {
          try {
            if (headers == null) {
              headers = frame.headersLength() == 0 ? Map.of() : HeadersCodec.read(frame.headers());
            }
            Executor chosen = selector.select(entry.method(), headers);
            if (chosen != null) {
              executor = chosen;
            }
          } catch (Throwable e) {
            selectorFailures.warn("executor selector failed for request id {} from {} ({}); using the default executor",
                frame.requestId(), connection.remoteAddress(), LogText.shorten(e.toString()));
            headers = null;
          }
        }
        InboundCall call = new InboundCall(connection, frame, entry, headers);
        if (!call.decodeNow()) {
          continue; // undecodable: already answered
        }
        if (entry.isSlow()) {
          submit(executor, call);
          continue;
        }
        if (open == null || open.executor == executor) {
          open = addTo(open, executor, call);
        } else {
          if (other != null && other.executor != executor) {
            other.submit();
            other = null;
          }
          other = addTo(other, executor, call);
        }
      }
      if (open != null) {
        Batch b = open;
        open = null;
        b.submit();
      }
      if (other != null) {
        Batch b = other;
        other = null;
        b.submit();
      }
    } catch (Throwable e) {
      // a bug: leak no frame, and leave no peer waiting for answers that will not come
      for (int j = i + 1; j < n; j++) {
        frames.get(j).release();
      }
      for (Batch b : new Batch[] {open, other}) {
        if (b != null) {
          b.refuse();
        }
      }
      dispatchFailures.warn("closing connection from {}: dispatching its requests failed unexpectedly",
          connection.remoteAddress(), e);
      connection.close();
    }
  }

  /** Adds {@code call} to {@code batch} (a new one if null); returns the batch, or null once it was submitted full. */
  private Batch addTo(Batch batch, Executor executor, InboundCall call) {
    Batch b = batch != null ? batch : new Batch(executor);
    b.add(call);
    if (b.size == MAX_BATCH) {
      b.submit();
      return null;
    }
    return b;
  }

  private static void submit(Executor executor, InboundCall call) {
    try {
      executor.execute(call);
    } catch (RuntimeException e) { // RejectedExecutionException, or a broken executor
      call.rejectBusy();
    }
  }

  /**
   * Quick requests for one executor, run by one task in arrival order. If one of them turns out to be
   * slow (its handler still runs {@value #STALL_MILLIS} ms into the task), a timer hands each request
   * not yet started to the executor on its own, so a stalled handler never holds the others back for
   * long.
   */
  private static final AtomicIntegerFieldUpdater<Batch> NEXT = AtomicIntegerFieldUpdater.newUpdater(Batch.class, "next");

  private final class Batch implements Runnable, TimerTask {
    final Executor executor;
    // most reads bring one or two requests: start small, grow up to MAX_BATCH
    InboundCall[] calls = new InboundCall[4];
    @SuppressWarnings("UnusedVariable") // read and written through NEXT, its field updater
    volatile int next; // the next call to start, claimed by the task or the watchdog
    int size;
    Thread submitter;

    Batch(Executor executor) {
      this.executor = executor;
    }

    void add(InboundCall call) {
      if (size == calls.length) {
        calls = Arrays.copyOf(calls, Math.min(MAX_BATCH, size * 2));
      }
      calls[size++] = call;
    }

    /** Answers every call of the batch busy without running it. */
    void refuse() {
      for (int i = 0; i < size; i++) {
        calls[i].rejectBusy();
      }
    }

    void submit() {
      if (size == 1) {
        RequestDispatcher.submit(executor, calls[0]);
        return;
      }
      submitter = Thread.currentThread();
      try {
        executor.execute(this);
      } catch (RuntimeException e) { // RejectedExecutionException, or a broken executor
        for (int i = 0; i < size; i++) {
          calls[i].rejectBusy();
        }
      }
    }

    @Override
    public void run() {
      BoltConnection connection = calls[0].boltConnection(); // one read: one connection
      // a direct executor runs the batch right here, on the IO thread: there is nowhere to hand out to
      Timeout watchdog = Thread.currentThread() == submitter ? null
          : timer.newTimeout(this, STALL_MILLIS, TimeUnit.MILLISECONDS);
      try {
        for (int i; (i = NEXT.getAndIncrement(this)) < size; ) {
          calls[i].runInBatch();
        }
      } finally {
        if (watchdog != null) {
          watchdog.cancel();
        }
        connection.flushLater(); // every answer of the batch in one write
      }
    }

    /**
     * The watchdog, on the timer thread: this batch is stuck in a slow handler; the rest runs elsewhere. An
     * executor that runs a task on the thread that submits it (a caller-runs policy when it is full) would
     * run it here and stall every timeout of the process: such a task answers busy instead.
     */
    @Override
    public void run(Timeout timeout) {
      Thread timerThread = Thread.currentThread();
      for (int i; (i = NEXT.getAndIncrement(this)) < size; ) {
        InboundCall call = calls[i];
        try {
          executor.execute(() -> {
            if (Thread.currentThread() == timerThread) {
              call.rejectBusy();
            } else {
              call.run();
            }
          });
        } catch (RejectedExecutionException e) {
          call.rejectBusy();
        } catch (Throwable e) {
          watchdogFailures.warn("executor {} failed to take request id {}: {}", executor, call.requestId(),
              e.toString());
          call.rejectBusy();
        }
      }
    }
  }

  /** The headers of a SOFARPC request, or {@code null} when they are malformed (the request names no method). */
  private static Map<String, String> sofaRpcHeaders(BoltFrame frame) {
    try {
      return frame.headersLength() == 0 ? Map.of() : HeadersCodec.read(frame.headers());
    } catch (RuntimeException e) {
      return null;
    }
  }

  private static void refuseUnknown(BoltConnection connection, BoltFrame frame) {
    String className = frame.classLength() <= LogText.MAX_CHARS ? frame.classNameString()
        : frame.classNamePreview(LogText.MAX_CHARS) + "…(" + frame.classLength() + " bytes in all)";
    // SOFARPC's own providers refuse a method they do not have while decoding the request (0x12), and a
    // SOFABolt client only shows the server's message for that status: answer SOFARPC requests the same way
    boolean sofaRpc = className.equals(MethodDescriptor.SOFA_REQUEST);
    if (sofaRpc) {
      className = MethodTable.sofaRpcName(frame);
    }
    int requestId = frame.requestId();
    boolean oneway = frame.isOneway();
    frame.release();
    connection.requestClosed();
    unknownClassNames.warn("no service for '{}' (request id {} from {})", className, requestId,
        connection.remoteAddress());
    if (!oneway) {
      connection.writeFrame(ErrorFrames.error(connection.alloc(), connection.format(),
          requestId, sofaRpc ? ResponseStatus.SERVER_DESERIAL_EXCEPTION : ResponseStatus.NO_PROCESSOR, null,
          "no service is registered for '" + className + "'",
          "dispatch"));
    }
  }
}
