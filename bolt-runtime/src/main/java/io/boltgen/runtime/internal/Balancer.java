package io.boltgen.runtime.internal;

import io.boltgen.runtime.cluster.BalancingPolicy;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Picks the instance a call goes to, by a {@link BalancingPolicy} policy, among the members that are not
 * ejected, weigh more than 0, and are not the one a retry avoids. When no member is left it picks among all
 * of them (better a call to an instance that may have recovered than no call at all). Allocates nothing.
 *
 * <p>Thread-safe: the round-robin counter is atomic; everything else reads the members given.
 */
final class Balancer {

  private final AtomicInteger next = new AtomicInteger();

  /**
   * The member a call goes to, or {@code null} if there is none. {@code avoid} (may be null) is taken only
   * if nothing else is available.
   */
  ClusterMember pick(BalancingPolicy policy, ClusterMember[] members, ClusterMember avoid, long nowNanos) {
    int n = members.length;
    if (n == 0) {
      return null;
    }
    if (n == 1) {
      return members[0];
    }
    int available = 0;
    for (ClusterMember m : members) {
      if (m != avoid && m.isAvailable(nowNanos) && m.instance().weight() > 0) {
        available++;
      }
    }
    boolean all = available == 0; // every member ejected, avoided or of weight 0: pick among all
    if (all) {
      available = n;
    }
    switch (policy) {
      case ROUND_ROBIN:
        return nth(members, Math.floorMod(next.getAndIncrement(), available), all, avoid, nowNanos);
      case WEIGHTED_RANDOM:
        return weightedRandom(members, all, avoid, nowNanos);
      case LEAST_PENDING:
      default:
        return leastPending(members, all, avoid, nowNanos);
    }
  }

  private static boolean eligible(ClusterMember m, boolean all, ClusterMember avoid, long nowNanos) {
    return all || (m != avoid && m.isAvailable(nowNanos) && m.instance().weight() > 0);
  }

  private static ClusterMember nth(ClusterMember[] members, int index, boolean all, ClusterMember avoid,
      long nowNanos) {
    int seen = 0;
    for (ClusterMember m : members) {
      if (eligible(m, all, avoid, nowNanos)) {
        if (seen == index) {
          return m;
        }
        seen++;
      }
    }
    return members[0]; // the set of available members changed while we counted
  }

  private static ClusterMember weightedRandom(ClusterMember[] members, boolean all, ClusterMember avoid,
      long nowNanos) {
    ClusterMember drawn = draw(members, all, avoid, null, nowNanos);
    return drawn != null ? drawn : members[0]; // every candidate was ejected while we drew
  }

  /**
   * One eligible member other than {@code except}, with a probability proportional to its weight (uniform
   * when every candidate weighs 0); {@code null} if there is none.
   */
  private static ClusterMember draw(ClusterMember[] members, boolean all, ClusterMember avoid,
      ClusterMember except, long nowNanos) {
    long total = 0;
    int count = 0;
    for (ClusterMember m : members) {
      if (m != except && eligible(m, all, avoid, nowNanos)) {
        total += m.instance().weight();
        count++;
      }
    }
    if (count == 0) {
      return null;
    }
    ThreadLocalRandom random = ThreadLocalRandom.current();
    boolean uniform = total == 0;
    long ticket = uniform ? random.nextInt(count) : random.nextLong(total);
    ClusterMember last = null;
    for (ClusterMember m : members) {
      if (m != except && eligible(m, all, avoid, nowNanos)) {
        ticket -= uniform ? 1 : m.instance().weight();
        last = m;
        if (ticket < 0) {
          return m;
        }
      }
    }
    return last;
  }

  /**
   * Two distinct eligible members drawn by weight; the one with fewer calls waiting for their answer (the
   * first on a tie). Idle, calls follow the weights; loaded, they avoid the slow.
   */
  private static ClusterMember leastPending(ClusterMember[] members, boolean all, ClusterMember avoid,
      long nowNanos) {
    ClusterMember a = draw(members, all, avoid, null, nowNanos);
    ClusterMember b = a == null ? null : draw(members, all, avoid, a, nowNanos);
    if (b == null) {
      return a != null ? a : members[0];
    }
    if (b.instance().weight() == 0 && a.instance().weight() > 0) {
      return a; // drawn only because nothing else was left to draw
    }
    return b.pendingCalls() < a.pendingCalls() ? b : a;
  }
}
