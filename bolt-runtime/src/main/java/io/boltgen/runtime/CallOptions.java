package io.boltgen.runtime;

import io.boltgen.runtime.cluster.LoadBalancer;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * Per-call options. Immutable: every {@code with*} method returns a copy, so one instance can be shared by
 * any number of threads and stubs.
 *
 * <p>The effective timeout of a call is the first of: this object's timeout, the method's
 * ({@code @BoltMethod(timeoutMillis)}), the service's ({@code @BoltService(timeoutMillis)}). It is never
 * infinite. It covers everything from the moment the call starts: waiting for a connection, writing,
 * and the server's answer.
 */
public final class CallOptions {

  /** No overrides: the method's timeout, no headers, the client's callback executor. */
  public static final CallOptions DEFAULT = new CallOptions(0, Map.of(), null, null);

  private final long timeoutMillis;
  private final Map<String, String> headers;
  private final Executor callbackExecutor;
  private final LoadBalancer loadBalancer;

  private CallOptions(long timeoutMillis, Map<String, String> headers, Executor callbackExecutor,
      LoadBalancer loadBalancer) {
    this.timeoutMillis = timeoutMillis;
    this.headers = headers;
    this.callbackExecutor = callbackExecutor;
    this.loadBalancer = loadBalancer;
  }

  /** A copy with this timeout; it must be positive and at most {@code Integer.MAX_VALUE} ms. */
  public CallOptions withTimeout(Duration timeout) {
    Objects.requireNonNull(timeout, "timeout");
    return withTimeoutMillis(timeout.toMillis());
  }

  /** A copy with this timeout in milliseconds; it must be positive and at most {@code Integer.MAX_VALUE}. */
  public CallOptions withTimeoutMillis(long timeoutMillis) {
    if (timeoutMillis <= 0 || timeoutMillis > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("timeout must be 1.." + Integer.MAX_VALUE + " ms: " + timeoutMillis);
    }
    return new CallOptions(timeoutMillis, headers, callbackExecutor, loadBalancer);
  }

  /**
   * A copy with one more request header entry (SOFARPC's key/value layout on the wire). A later value for
   * the same key replaces the earlier one.
   */
  public CallOptions withHeader(String key, String value) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(value, "value");
    Map<String, String> copy = new LinkedHashMap<>(headers);
    copy.put(key, value);
    return new CallOptions(timeoutMillis, Collections.unmodifiableMap(copy), callbackExecutor, loadBalancer);
  }

  /**
   * A copy whose callbacks run on {@code executor} instead of the client's callback executor. A direct
   * executor ({@code Runnable::run}) runs them on the IO thread: only for callbacks that never block.
   */
  public CallOptions withCallbackExecutor(Executor executor) {
    return new CallOptions(timeoutMillis, headers, Objects.requireNonNull(executor, "executor"), loadBalancer);
  }

  /**
   * A copy that picks the instance of a cluster by {@code policy} instead of its channel's policy; channels
   * to one address ignore it.
   */
  public CallOptions withLoadBalancer(LoadBalancer policy) {
    return new CallOptions(timeoutMillis, headers, callbackExecutor, Objects.requireNonNull(policy, "policy"));
  }

  /** The load-balancing override, or {@code null} for the channel's. */
  public LoadBalancer loadBalancer() {
    return loadBalancer;
  }

  /** The timeout override in milliseconds, or 0 for the method's own. */
  public long timeoutMillis() {
    return timeoutMillis;
  }

  /** The request header entries, in insertion order; empty unless set. */
  public Map<String, String> headers() {
    return headers;
  }

  /** The callback executor override, or {@code null} for the client's. */
  public Executor callbackExecutor() {
    return callbackExecutor;
  }

  @Override
  public String toString() {
    return "CallOptions{timeoutMillis=" + timeoutMillis + ", headers=" + headers
        + ", callbackExecutor=" + callbackExecutor + (loadBalancer != null ? ", loadBalancer=" + loadBalancer : "")
        + '}';
  }
}
