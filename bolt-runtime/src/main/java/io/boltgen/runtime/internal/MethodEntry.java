package io.boltgen.runtime.internal;

import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.ServiceInvoker;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * A registered method: its descriptor, the invoker of its service, the executor it runs on ({@code null}
 * for the endpoint's default), and how long its handler has been taking lately.
 *
 * <p>The handler time (an exponentially weighted moving average, updated without locking; a lost update
 * only delays the average a little) decides how requests are handed to the executor: requests of quick
 * methods that arrive in one read share one task, requests of slow methods get a task each, so that they
 * run in parallel.
 *
 * <p>Thread-safe: the moving average is one volatile long, updated without a lock (see above).
 */
final class MethodEntry {

  /** A handler that takes longer than this on average runs one request per task. */
  static final long SLOW_NANOS = TimeUnit.MICROSECONDS.toNanos(50);

  private final MethodDescriptor<?, ?> method;
  private final ServiceInvoker invoker;
  private final Executor executor;
  private final byte[] responseClassName;
  private volatile long averageNanos;

  MethodEntry(MethodDescriptor<?, ?> method, ServiceInvoker invoker, Executor executor) {
    this.method = method;
    this.responseClassName = method.responseClassName().getBytes(StandardCharsets.UTF_8);
    this.invoker = invoker;
    this.executor = executor;
  }

  MethodDescriptor<?, ?> method() {
    return method;
  }

  ServiceInvoker invoker() {
    return invoker;
  }

  Executor executor() {
    return executor;
  }

  /** The UTF-8 className of this method's responses (shared: never modify it). */
  byte[] responseClassName() {
    return responseClassName;
  }

  /** Records one run of the handler. */
  void recordHandlerTime(long nanos) {
    long average = averageNanos;
    averageNanos = average + ((nanos - average) >> 3);
  }

  /** Whether the handler has lately been slow enough to deserve a task per request. */
  boolean isSlow() {
    return averageNanos > SLOW_NANOS;
  }
}
