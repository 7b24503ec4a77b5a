package io.boltgen.runtime.internal;

import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.ResponseStatus;
import io.netty.util.Timer;
import java.util.concurrent.Executor;

/**
 * What every call of one endpoint (client or server) shares: the process's timer, the executor callbacks
 * run on, and whether the endpoint still accepts calls.
 */
final class CallEnvironment {

  private final Timer timer;
  private final Executor callbackExecutor;
  private final String owner;
  private volatile boolean closed;

  /**
   * @param timer the process's wheel timer
   * @param callbackExecutor where callbacks (and {@code *Async} stages without executor) run
   * @param owner names the endpoint in error messages, for example "client"
   */
  public CallEnvironment(Timer timer, Executor callbackExecutor, String owner) {
    this.timer = timer;
    this.callbackExecutor = callbackExecutor;
    this.owner = owner;
  }

  Timer timer() {
    return timer;
  }

  /** Where callbacks run unless a call names its own executor. */
  public Executor callbackExecutor() {
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

  BoltException closedError() {
    return new BoltException(ResponseStatus.CLIENT_SEND_ERROR, "the " + owner + " is closed");
  }
}
