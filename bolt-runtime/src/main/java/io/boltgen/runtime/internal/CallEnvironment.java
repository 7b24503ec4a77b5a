package io.boltgen.runtime.internal;

import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.ClientInterceptor;
import io.boltgen.runtime.ResponseStatus;
import io.netty.util.Timer;
import io.netty.util.concurrent.Ticker;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * What every call of one endpoint (client or server) shares: the clock and the timer every deadline of the
 * endpoint is measured and scheduled on (the system clock and the process's wheel timer, or virtual time in
 * tests), the classNames of the methods it calls, the executor callbacks run on, its interceptors, and
 * whether the endpoint still accepts calls.
 *
 * <p>Thread-safe: immutable but for the volatile closed flag and the concurrent className cache.
 */
public final class CallEnvironment {

  private final Timer timer;
  private final Ticker ticker;
  private final WireNames wireNames = new WireNames();
  private final Executor callbackExecutor;
  private final String owner;
  private final ClientInterceptor[] clientInterceptors;
  private volatile boolean closed;

  /**
   * @param timer the process's wheel timer
   * @param ticker the clock deadlines are measured on; {@link Ticker#systemTicker()} outside tests
   * @param callbackExecutor where callbacks (and {@code *Async} stages without executor) run
   * @param owner names the endpoint in error messages, for example "client"
   */
  public CallEnvironment(Timer timer, Ticker ticker, Executor callbackExecutor, String owner) {
    this(timer, ticker, callbackExecutor, owner, List.of());
  }

  /** An environment whose calls pass {@code clientInterceptors}. */
  public CallEnvironment(Timer timer, Ticker ticker, Executor callbackExecutor, String owner,
      List<ClientInterceptor> clientInterceptors) {
    this.timer = timer;
    this.ticker = ticker;
    this.callbackExecutor = callbackExecutor;
    this.owner = owner;
    this.clientInterceptors = clientInterceptors.toArray(new ClientInterceptor[0]);
  }

  /** The interceptors of the calls this endpoint sends, in order; empty when none (the common case). */
  ClientInterceptor[] clientInterceptors() {
    return clientInterceptors;
  }

  public Timer timer() {
    return timer;
  }

  /** The cached classNames of the methods this endpoint calls. */
  WireNames wireNames() {
    return wireNames;
  }

  /** The clock every deadline of the endpoint is measured on (the timer's, in tests). */
  public Ticker ticker() {
    return ticker;
  }

  /** Where callbacks run unless a call names its own executor. */
  Executor callbackExecutor() {
    return callbackExecutor;
  }

  /** Refuses further calls; calls already started go on. */
  public void close() {
    closed = true;
  }

  /** Whether {@link #close()} was called. */
  public boolean isClosed() {
    return closed;
  }

  public BoltException closedError() {
    return new BoltException(ResponseStatus.CLIENT_SEND_ERROR, "the " + owner + " is closed");
  }
}
