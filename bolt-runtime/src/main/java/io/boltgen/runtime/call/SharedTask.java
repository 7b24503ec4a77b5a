package io.boltgen.runtime.call;

import io.boltgen.runtime.support.RateLimitedLog;
import io.netty.util.Timeout;
import io.netty.util.Timer;
import io.netty.util.TimerTask;
import java.util.Arrays;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calls of quick methods for one executor that started together, run by one task in the order they started
 * (see {@link ServerCalls.Dispatch}). If one of them turns out to be slow (its handler still runs
 * {@value #STALL_MILLIS} ms into the task), a timer hands each call not yet started to the executor on its
 * own, so a stalled handler never holds the others back for long. The answers the task's handlers give on its
 * thread leave in one flush when it ends.
 *
 * <p>Built on the IO thread; run once on the executor; its watchdog runs on the timer thread, and either
 * claims each call exactly once.
 */
final class SharedTask implements Runnable, TimerTask {

  private static final Logger log = LoggerFactory.getLogger(SharedTask.class);
  private static final RateLimitedLog watchdogFailures = RateLimitedLog.of(log);
  private static final AtomicIntegerFieldUpdater<SharedTask> NEXT =
      AtomicIntegerFieldUpdater.newUpdater(SharedTask.class, "next");

  /** The most calls one shared task runs. */
  static final int MAX_CALLS = ServerCalls.Dispatch.MAX_SHARED;

  /** How long a shared task may be stuck in one handler before its other calls run elsewhere. */
  static final long STALL_MILLIS = ServerCalls.Dispatch.STALL_MILLIS;

  final Executor executor;
  private final Timer timer;
  // most reads bring one or two requests: start small, grow up to MAX_CALLS
  private ServedCall[] calls = new ServedCall[4];
  @SuppressWarnings("UnusedVariable") // read and written through NEXT, its field updater
  private volatile int next; // the next call to start, claimed by the task or the watchdog
  private int size;
  private Thread submitter;

  SharedTask(Executor executor, Timer timer) {
    this.executor = executor;
    this.timer = timer;
  }

  /** Adds {@code call}; true when the task is full now. */
  boolean add(ServedCall call) {
    if (size == calls.length) {
      calls = Arrays.copyOf(calls, Math.min(MAX_CALLS, size * 2));
    }
    calls[size++] = call;
    return size == MAX_CALLS;
  }

  /** Hands the task to its executor (one call alone goes as itself); a refusal answers every call busy. */
  void submit() {
    if (size == 1) {
      submitAlone(executor, calls[0]);
      return;
    }
    submitter = Thread.currentThread();
    try {
      executor.execute(this);
    } catch (RuntimeException e) { // RejectedExecutionException, or a broken executor
      refuse();
    }
  }

  /** Refuses every call of the task busy without running it. */
  void refuse() {
    for (int i = 0; i < size; i++) {
      calls[i].rejectBusy();
    }
  }

  /** Hands {@code call} to {@code executor} as a task of its own; a refusal answers it busy. */
  static void submitAlone(Executor executor, ServedCall call) {
    try {
      executor.execute(call);
    } catch (RuntimeException e) { // RejectedExecutionException, or a broken executor
      call.rejectBusy();
    }
  }

  @Override
  public void run() {
    // a direct executor runs the task right here, on the IO thread: there is nowhere to hand out to
    Timeout watchdog = Thread.currentThread() == submitter ? null
        : timer.newTimeout(this, STALL_MILLIS, TimeUnit.MILLISECONDS);
    try {
      for (int i; (i = NEXT.getAndIncrement(this)) < size; ) {
        calls[i].runShared();
      }
    } finally {
      if (watchdog != null) {
        watchdog.cancel();
      }
      calls[0].flush(); // every answer of the task in one write: the calls of one read share a connection
    }
  }

  /**
   * The watchdog, on the timer thread: this task is stuck in a slow handler; the rest runs elsewhere. An
   * executor that runs a task on the thread that submits it (a caller-runs policy when it is full) would run it
   * here and stall every timeout of the process: such a call is refused busy instead.
   */
  @Override
  public void run(Timeout timeout) {
    Thread timerThread = Thread.currentThread();
    for (int i; (i = NEXT.getAndIncrement(this)) < size; ) {
      ServedCall call = calls[i];
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
        watchdogFailures.warn("executor {} failed to take request id {}: {}", executor, call.requestId(), e.toString());
        call.rejectBusy();
      }
    }
  }
}
