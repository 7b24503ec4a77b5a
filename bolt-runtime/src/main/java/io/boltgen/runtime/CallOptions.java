package io.boltgen.runtime;

import io.boltgen.runtime.cluster.BalancingPolicy;
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
 * and the server's answer. A {@link #withDeadline deadline} stands in for the timeout the same way (with both
 * set, the earlier wins). A call made by a handler on its own thread also ends no later than the deadline of
 * the call it serves ({@link ServerContext#deadline()}).
 *
 * <p>On a channel to a cluster ({@code scheme:///service}), {@link #withMaxAttempts} and {@link #withIdempotent}
 * override the client's attempt limit and the method's {@code @Idempotent} for failover; channels to one
 * address never send a call twice and ignore both.
 */
public final class CallOptions {

  /** No overrides: the method's timeout, no headers, the client's callback executor. */
  public static final CallOptions DEFAULT = new CallOptions(0, Map.of(), null, null, 0, null, null);

  private final long timeoutMillis;
  private final Map<String, String> headers;
  private final Executor callbackExecutor;
  private final BalancingPolicy balancingPolicy;
  private final int maxAttempts;
  private final Boolean idempotent;
  private final Deadline deadline;

  private CallOptions(long timeoutMillis, Map<String, String> headers, Executor callbackExecutor,
      BalancingPolicy balancingPolicy, int maxAttempts, Boolean idempotent, Deadline deadline) {
    this.timeoutMillis = timeoutMillis;
    this.headers = headers;
    this.callbackExecutor = callbackExecutor;
    this.balancingPolicy = balancingPolicy;
    this.maxAttempts = maxAttempts;
    this.idempotent = idempotent;
    this.deadline = deadline;
  }

  /** A copy with this timeout; it must be positive and at most {@code Integer.MAX_VALUE} ms. */
  public CallOptions withTimeout(Duration timeout) {
    Objects.requireNonNull(timeout, "timeout");
    return withTimeoutMillis(timeout.toMillis());
  }

  /**
   * A copy whose calls end at {@code deadline}: it stands in for the method's timeout, as {@link #withTimeout}
   * does (with both set, the earlier wins). To pass a served call's deadline ({@link ServerContext#deadline()})
   * on to calls made on another thread; calls made on the handler's own thread end by it anyway, unless their
   * own timeout is shorter. A call whose deadline already passed fails at once with
   * {@link ResponseStatus#TIMEOUT}, sending nothing.
   */
  public CallOptions withDeadline(Deadline deadline) {
    return new CallOptions(timeoutMillis, headers, callbackExecutor, balancingPolicy, maxAttempts, idempotent,
        Objects.requireNonNull(deadline, "deadline"));
  }

  /** A copy with this timeout in milliseconds; it must be positive and at most {@code Integer.MAX_VALUE}. */
  public CallOptions withTimeoutMillis(long timeoutMillis) {
    if (timeoutMillis <= 0 || timeoutMillis > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("timeout must be 1.." + Integer.MAX_VALUE + " ms: " + timeoutMillis);
    }
    return new CallOptions(timeoutMillis, headers, callbackExecutor, balancingPolicy, maxAttempts, idempotent, deadline);
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
    return new CallOptions(timeoutMillis, Collections.unmodifiableMap(copy), callbackExecutor, balancingPolicy,
        maxAttempts, idempotent, deadline);
  }

  /**
   * A copy whose callbacks run on {@code executor} instead of the client's callback executor. A direct
   * executor ({@code Runnable::run}) runs them on the IO thread: only for callbacks that never block.
   */
  public CallOptions withCallbackExecutor(Executor executor) {
    return new CallOptions(timeoutMillis, headers, Objects.requireNonNull(executor, "executor"), balancingPolicy,
        maxAttempts, idempotent, deadline);
  }

  /**
   * A copy that picks the instance of a cluster by {@code policy} instead of its channel's policy; channels
   * to one address ignore it.
   */
  public CallOptions withBalancingPolicy(BalancingPolicy policy) {
    return new CallOptions(timeoutMillis, headers, callbackExecutor, Objects.requireNonNull(policy, "policy"),
        maxAttempts, idempotent, deadline);
  }

  /**
   * A copy that sends a call to a cluster at most {@code maxAttempts} times (the first attempt included;
   * 1 turns failover off) instead of the client's limit ({@code BoltClient.Builder.retries}). Every attempt
   * still fits in the call's one timeout and takes a token of the client's retry budget.
   */
  public CallOptions withMaxAttempts(int maxAttempts) {
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be at least 1: " + maxAttempts);
    }
    return new CallOptions(timeoutMillis, headers, callbackExecutor, balancingPolicy, maxAttempts, idempotent, deadline);
  }

  /**
   * A copy that says whether the method may run more than once, instead of its {@code @Idempotent}: an
   * idempotent call to a cluster may be sent again after its request was written, when its connection
   * failed. Only a request-response call can be idempotent; other calls ignore it.
   */
  public CallOptions withIdempotent(boolean idempotent) {
    return new CallOptions(timeoutMillis, headers, callbackExecutor, balancingPolicy, maxAttempts, idempotent, deadline);
  }

  /** The attempt limit override, or 0 for the client's. */
  public int maxAttempts() {
    return maxAttempts;
  }

  /** The idempotence override, or {@code null} for the method's own ({@code @Idempotent}). */
  public Boolean idempotent() {
    return idempotent;
  }

  /** The load-balancing override, or {@code null} for the channel's. */
  public BalancingPolicy balancingPolicy() {
    return balancingPolicy;
  }

  /** The timeout override in milliseconds, or 0 for the method's own. */
  public long timeoutMillis() {
    return timeoutMillis;
  }

  /** The deadline set by {@link #withDeadline}, or {@code null} for none. */
  public Deadline deadline() {
    return deadline;
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
        + ", callbackExecutor=" + callbackExecutor + (balancingPolicy != null ? ", balancingPolicy=" + balancingPolicy : "")
        + (maxAttempts != 0 ? ", maxAttempts=" + maxAttempts : "") + (idempotent != null ? ", idempotent=" + idempotent : "")
        + (deadline != null ? ", deadline=" + deadline : "") + '}';
  }
}
