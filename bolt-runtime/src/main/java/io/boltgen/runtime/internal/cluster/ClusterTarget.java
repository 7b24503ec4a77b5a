package io.boltgen.runtime.internal.cluster;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.boltgen.runtime.BoltChannel;
import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.MethodType;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.cluster.BalancingPolicy;
import io.boltgen.runtime.cluster.NameResolver;
import io.boltgen.runtime.cluster.ServiceInstance;
import io.boltgen.runtime.internal.CallChannel;
import io.boltgen.runtime.internal.CallEnvironment;
import io.boltgen.runtime.internal.CallTarget;
import io.boltgen.runtime.internal.ConnectionPool;
import io.boltgen.runtime.internal.PendingCall;
import io.boltgen.runtime.internal.wire.RemoteErrors;
import io.boltgen.runtime.support.MessageText;
import io.boltgen.runtime.support.RateLimitedLog;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A service that runs as several instances: what channels made from {@code scheme:///service} send to, one
 * channel per balancing policy over one watch and one set of members.
 * It watches the service through its {@link NameResolver}, keeps one {@link ClusterMember} per instance
 * (connections made on the first call, closed once an instance leaves and its calls were answered), picks an
 * instance per call with a {@link Balancer}, and sends each call as attempts ({@link PendingCall#newAttempt}).
 *
 * <p>Failover: an attempt that failed for a reason of the instance or the network (see {@link #mayRetry})
 * is sent again to another instance if the instance refused it unrun (busy), if its request never left this
 * client, or if its method is idempotent;
 * always within the call's own deadline, at most {@code maxAttempts} attempts, and while the cluster's
 * {@link RetryBudget} has tokens. Nothing else is ever sent twice. Calls made before the first resolution
 * wait for it within their deadline.
 *
 * <p>Capacity: every attempt takes a place on its member ({@link ClusterMember#tryAcquire}) and gives it back
 * when it is done (abandoned after it was written: when its late answer comes or its connection closes), so
 * a member never has more attempts than its stated {@code maxConcurrentCalls} (while stalled: one probe at a
 * time, at most one per stall timeout). When every member is full, calls wait in a queue of at most
 * {@link Failover#capacityQueue}, oldest first, and go out as answers free places, within their own deadline.
 *
 * <p>Thread-safe: the member set is replaced whole (copy on write) under this object's lock.
 */
public final class ClusterTarget {

  private static final Logger log = LoggerFactory.getLogger(ClusterTarget.class);
  private static final RateLimitedLog resolverErrors = RateLimitedLog.of(log);
  private static final RateLimitedLog membership = RateLimitedLog.of(log);

  /** What a cluster needs from its client. */
  public interface Pools {

    /** A pool of connections to {@code address}, shared with other users of it. */
    ConnectionPool acquire(InetSocketAddress address);

    /** This cluster no longer uses the pool it acquired for {@code address}. */
    void release(InetSocketAddress address);
  }

  /** The failover settings of a client. */
  public record Failover(int maxAttempts, int retryBudget, double retryRefill, ClusterMember.Ejection ejection,
      long stallNanos, int capacityQueue) {}

  private final String target;
  private final Pools pools;
  private final CallEnvironment env;
  private final Failover failover;
  private final Balancer balancer = new Balancer();
  private final RetryBudget budget;
  private final SocketAddress serviceAddress; // what interceptors see as a cluster call's remote address
  private final Map<BalancingPolicy, CallChannel> channels = new EnumMap<>(BalancingPolicy.class);
  private final CompletableFuture<Void> resolved = new CompletableFuture<>();
  private final ConcurrentLinkedQueue<Waiting> unresolved = new ConcurrentLinkedQueue<>();
  private final ReentrantLock fullLock = new ReentrantLock(); // guards the calls waiting for a place
  private final ReentrantLock membersLock = new ReentrantLock(); // changes the members, closes
  @GuardedBy("fullLock")
  private final ArrayDeque<Held> full = new ArrayDeque<>(); // calls waiting for a place, oldest first
  private final NameResolver.Watch watch;
  private volatile ClusterMember[] members = new ClusterMember[0]; // written under membersLock, read without it
  @GuardedBy("membersLock")
  private boolean closed;

  public ClusterTarget(String target, NameResolver resolver, String service, Pools pools, CallEnvironment env,
      Failover failover) {
    this.target = target;
    this.serviceAddress = InetSocketAddress.createUnresolved(service, 0);
    this.pools = pools;
    this.env = env;
    this.failover = failover;
    this.budget = new RetryBudget(failover.retryBudget(), failover.retryRefill());
    for (BalancingPolicy policy : BalancingPolicy.values()) {
      channels.put(policy, new CallChannel(new Balanced(policy), env));
    }
    this.watch = resolver.watch(service, new NameResolver.Listener() {
      @Override
      public void onInstances(List<ServiceInstance> instances) {
        update(instances);
      }

      @Override
      public void onError(Throwable error) {
        resolverErrors.warn("resolving {} failed, the last {} instances stay in use: {}", target, members.length,
            MessageText.shorten(String.valueOf(error)));
      }
    });
  }

  /** The channel sending over this cluster, balancing by {@code policy} unless a call chooses another. */
  public BoltChannel channel(BalancingPolicy policy) {
    return channels.get(policy);
  }

  /** Where the channel of one policy sends. */
  private final class Balanced implements CallTarget {
    private final BalancingPolicy policy;

    Balanced(BalancingPolicy policy) {
      this.policy = policy;
    }

    @Override
    public void send(PendingCall<?> call) {
      ClusterTarget.this.send(call, policy);
    }

    @Override
    public SocketAddress remoteAddress() {
      return serviceAddress;
    }
  }

  /** The instances known now, ejected ones included. */
  public List<ServiceInstance> instances() {
    List<ServiceInstance> list = new ArrayList<>();
    for (ClusterMember m : members) {
      list.add(m.instance());
    }
    return list;
  }

  @SuppressWarnings("FutureReturnValueIgnored") // removing from a concurrent queue cannot fail
  private void send(PendingCall<?> call, BalancingPolicy channelPolicy) {
    budget.onCall();
    call.retainRequest();
    call.timeWhileWaiting(); // the call itself waits in no call table (its attempts do, without timers)
    BalancingPolicy chosen = call.options().balancingPolicy();
    BalancingPolicy policy = chosen != null ? chosen : channelPolicy;
    if (resolved.isDone()) {
      attempt(call, policy, null, 1);
      return;
    }
    // waits for the first resolution within its deadline (a oneway call gets a timer for it), and leaves
    // the queue when it completes first, so that an unreachable registry holds no more than what waits
    Waiting waiting = new Waiting(call, policy);
    if (call.isOneway()) {
      call.scheduleTimeout();
    }
    unresolved.add(waiting);
    call.whenComplete((value, error) -> unresolved.remove(waiting));
    if (resolved.isDone()) {
      sendWaiting(); // resolved while we queued: the resolver's drain may have missed us
    }
  }

  /** A call waiting for the first resolution, with the policy it is to be balanced by. */
  private record Waiting(PendingCall<?> call, BalancingPolicy policy) {}

  /** Sends the calls that waited for the first resolution. */
  private void sendWaiting() {
    for (Waiting w; (w = unresolved.poll()) != null; ) {
      if (!w.call().isDone()) {
        attempt(w.call(), w.policy(), null, 1);
      }
    }
  }

  private <R> void attempt(PendingCall<R> call, BalancingPolicy policy, ClusterMember avoid, int number) {
    if (env.isClosed()) {
      call.fail(env.closedError());
      return;
    }
    ClusterMember[] now = members;
    if (now.length == 0) {
      call.fail(new BoltException(ResponseStatus.ERROR_COMM, "no instance of " + target + " is known: the "
          + "resolver lists none (is the service running and registered?)"));
      return;
    }
    ClusterMember member = acquire(policy, now, avoid);
    if (member == null) {
      hold(new Held(call, policy, avoid, number));
      return;
    }
    send(call, policy, member, number);
  }

  /** Picks a member and takes a place on it; {@code null} if every member is full. */
  private ClusterMember acquire(BalancingPolicy policy, ClusterMember[] now, ClusterMember avoid) {
    for (int tries = 0; tries < 3; tries++) { // another call may take the last place between pick and acquire
      long nanos = env.ticker().nanoTime();
      long stall = failover.stallNanos();
      boolean someAnswer = Balancer.someAnswer(now, nanos, stall);
      ClusterMember member = balancer.pick(policy, now, avoid, nanos, stall, someAnswer);
      if (member == null) {
        return null;
      }
      boolean stalled = Balancer.stalled(member, someAnswer, nanos, stall);
      if (member.tryAcquire(stalled, nanos, stall)) {
        return member;
      }
    }
    return null;
  }

  private <R> void send(PendingCall<R> call, BalancingPolicy policy, ClusterMember member, int number) {
    PendingCall<R> attempt = call.newAttempt(
        (value, error) -> onAttemptDone(call, policy, member, number, value, error),
        answered -> left(member, answered));
    if (attempt == null) {
      return; // the call completed (timed out) meanwhile; the attempt gave its place back
    }
    member.pool().send(attempt);
  }

  /**
   * An attempt has left {@code member}: its place is free. An attempt abandoned by its call leaves only once its
   * late answer came ({@code answered}) or its connection closed, so that an instance that resumes after a
   * freeze is not sent new calls on top of the ones it still runs.
   */
  private void left(ClusterMember member, boolean answered) {
    member.release();
    if (answered) {
      member.answered(env.ticker().nanoTime());
    }
    sendHeld();
  }

  /** A call waiting for a place on a full cluster, with what its next attempt needs. */
  private record Held(PendingCall<?> call, BalancingPolicy policy, ClusterMember avoid, int number) {}

  /**
   * Holds {@code held} until an answer frees a place (or its call completes first: its timeout); fails it at
   * once when {@link Failover#capacityQueue} calls wait already.
   */
  @SuppressWarnings("FutureReturnValueIgnored") // removing from a queue under its lock cannot fail
  private void hold(Held held) {
    PendingCall<?> call = held.call();
    int waiting;
    fullLock.lock();
    try {
      waiting = full.size();
      if (waiting < failover.capacityQueue()) {
        full.add(held);
      }
    } finally {
      fullLock.unlock();
    }
    if (waiting >= failover.capacityQueue()) {
      call.fail(new BoltException(ResponseStatus.SERVER_THREADPOOL_BUSY, "every instance of " + target
          + " is at its maxConcurrentCalls and " + waiting + " calls wait for a place already (capacityQueue)"));
      return;
    }
    call.whenComplete((value, error) -> {
      fullLock.lock();
      try {
        full.remove(held);
      } finally {
        fullLock.unlock();
      }
    });
    sendHeld(); // a place may have come free while we queued
  }

  /** Sends the calls waiting for a place, oldest first, while places are free. */
  private void sendHeld() {
    while (true) {
      Held held;
      ClusterMember member;
      fullLock.lock();
      try {
        held = full.peek();
        if (held == null) {
          return;
        }
        if (held.call().isDone()) {
          full.poll();
          continue;
        }
        ClusterMember[] now = members;
        if (now.length == 0 || env.isClosed()) {
          full.poll();
          member = null;
        } else {
          member = acquire(held.policy(), now, held.avoid());
          if (member == null) {
            return; // still full: the next answer tries again
          }
          full.poll();
        }
      } finally {
        fullLock.unlock();
      }
      if (member == null) {
        attempt(held.call(), held.policy(), held.avoid(), held.number()); // fails saying why
      } else {
        send(held.call(), held.policy(), member, held.number());
      }
    }
  }

  private <R> void onAttemptDone(PendingCall<R> call, BalancingPolicy policy, ClusterMember member, int number,
      R value, Throwable error) {
    try {
      attemptDone(call, policy, member, number, value, error);
    } finally {
      sendHeld();
    }
  }

  private <R> void attemptDone(PendingCall<R> call, BalancingPolicy policy, ClusterMember member, int number,
      R value, Throwable error) {
    if (error == null) {
      member.answered(env.ticker().nanoTime());
      member.succeeded();
      if (call.isOneway()) {
        call.sent();
      } else {
        call.succeed(value);
      }
      return;
    }
    Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    if (cause instanceof CancellationException || !(cause instanceof BoltException failure)) {
      if (!(cause instanceof CancellationException)) {
        call.fail(new BoltException(ResponseStatus.ERROR, "call to " + target + " failed: " + cause));
      }
      return; // cancelled because the call completed first
    }
    boolean instanceFault = isInstanceFault(failure.status());
    if (RemoteErrors.isAnswer(failure)) {
      member.answered(env.ticker().nanoTime()); // an answer, even "busy": the instance is alive
    }
    if (instanceFault) {
      member.failed(env.ticker().nanoTime(), target, failure.getMessage());
    } else {
      member.succeeded(); // it answered
    }
    if (call.isDone()) {
      return;
    }
    if (instanceFault && mayRetry(call, failure.status()) && number < maxAttempts(call)
        && call.remainingMillis() > 0 && !env.isClosed() && budget.tryRetry()) {
      log.debug("sending {} to {} again after: {}", call.method().toString(), target, failure.getMessage());
      attempt(call, policy, member, number + 1);
      return;
    }
    call.fail(failure);
  }

  /** Whether {@code status} says the instance or the network failed (not the call's own content). */
  private static boolean isInstanceFault(ResponseStatus status) {
    return status == ResponseStatus.ERROR_COMM || status == ResponseStatus.CONNECTION_CLOSED
        || status == ResponseStatus.CLIENT_SEND_ERROR || status == ResponseStatus.SERVER_THREADPOOL_BUSY;
  }

  /**
   * Whether a call whose attempt failed for a reason of the instance ({@code status}) may be sent again: if
   * the instance refused it unrun (busy), if no attempt's request left this client, or if its method is
   * idempotent.
   */
  private static boolean mayRetry(PendingCall<?> call, ResponseStatus status) {
    if (!call.resendable()) {
      return false; // a stream of requests whose messages began to leave: another instance would miss them
    }
    if (status == ResponseStatus.SERVER_THREADPOOL_BUSY || !call.wasWritten()) {
      return true; // a busy server answers before any handler sees the request
    }
    Boolean idempotent = call.options().idempotent(); // the call's own say, else the method's
    return call.method().type() == MethodType.REQUEST_RESPONSE
        && (idempotent != null ? idempotent : call.method().idempotent());
  }

  /** The call's own attempt limit, else the client's. */
  private int maxAttempts(PendingCall<?> call) {
    int own = call.options().maxAttempts();
    return own > 0 ? own : failover.maxAttempts();
  }

  /** The resolver's new set: members join (connecting lazily) or leave (closing once idle). */
  private void update(List<ServiceInstance> instances) {
    List<InetSocketAddress> released = new ArrayList<>();
    membersLock.lock();
    try {
      if (closed) {
        return;
      }
      Map<InetSocketAddress, ClusterMember> old = new HashMap<>();
      for (ClusterMember m : members) {
        old.put(m.instance().address(), m);
      }
      Map<InetSocketAddress, ClusterMember> next = new LinkedHashMap<>();
      for (ServiceInstance instance : instances) {
        InetSocketAddress address = instance.address();
        if (next.containsKey(address)) {
          continue;
        }
        ClusterMember member = old.remove(address);
        if (member != null) {
          member.update(instance);
        } else {
          member = new ClusterMember(instance, pools.acquire(address), failover.ejection());
        }
        next.put(address, member);
      }
      members = next.values().toArray(new ClusterMember[0]);
      released.addAll(old.keySet());
    } finally {
      membersLock.unlock();
    }
    for (InetSocketAddress address : released) {
      pools.release(address);
    }
    membership.info("{} has {} instances{}", target, instances.size(),
        released.isEmpty() ? "" : " (" + released.size() + " left)");
    resolved.complete(null);
    sendWaiting();
  }

  /** Stops watching and releases every instance's connections (they close once their calls are answered). */
  public void close() {
    ClusterMember[] last;
    membersLock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      last = members;
      members = new ClusterMember[0];
    } finally {
      membersLock.unlock();
    }
    try {
      watch.close();
    } catch (RuntimeException e) {
      log.warn("closing the watch of {} failed: {}", target, e.toString());
    }
    for (ClusterMember m : last) {
      pools.release(m.instance().address());
    }
    resolved.complete(null);
    sendWaiting(); // they find no instance, or the client closed: they fail saying so
  }

  @Override
  public String toString() {
    return "ClusterTarget{" + target + ", " + members.length + " instances}";
  }
}
