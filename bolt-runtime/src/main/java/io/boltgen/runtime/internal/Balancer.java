package io.boltgen.runtime.internal;

import io.boltgen.runtime.cluster.LoadBalancer;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Picks the instance a call goes to, by a {@link LoadBalancer} policy, among the members that are not
 * ejected and are not the one a retry avoids. When every member is ejected it picks among all of them
 * (better a call to an instance that may have recovered than no call at all). Allocates nothing.
 *
 * <p>Thread-safe: the round-robin counter is atomic; everything else reads the members given.
 */
final class Balancer {

  private final AtomicInteger next = new AtomicInteger();

  /**
   * The member a call goes to, or {@code null} if there is none. {@code avoid} (may be null) is taken only
   * if nothing else is available.
   */
  ClusterMember pick(LoadBalancer policy, ClusterMember[] members, ClusterMember avoid, long nowNanos) {
    int n = members.length;
    if (n == 0) {
      return null;
    }
    if (n == 1) {
      return members[0];
    }
    int available = 0;
    for (ClusterMember m : members) {
      if (m != avoid && m.isAvailable(nowNanos)) {
        available++;
      }
    }
    boolean all = available == 0; // every member ejected (or avoided): pick among all
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
        return leastPending(members, available, all, avoid, nowNanos);
    }
  }

  private static boolean eligible(ClusterMember m, boolean all, ClusterMember avoid, long nowNanos) {
    return all || (m != avoid && m.isAvailable(nowNanos));
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
    long total = 0;
    for (ClusterMember m : members) {
      if (eligible(m, all, avoid, nowNanos)) {
        total += m.instance().weight();
      }
    }
    if (total == 0) {
      return nth(members, ThreadLocalRandom.current().nextInt(countEligible(members, all, avoid, nowNanos)),
          all, avoid, nowNanos);
    }
    long ticket = ThreadLocalRandom.current().nextLong(total);
    for (ClusterMember m : members) {
      if (eligible(m, all, avoid, nowNanos)) {
        ticket -= m.instance().weight();
        if (ticket < 0) {
          return m;
        }
      }
    }
    return members[members.length - 1];
  }

  private static int countEligible(ClusterMember[] members, boolean all, ClusterMember avoid, long nowNanos) {
    int count = 0;
    for (ClusterMember m : members) {
      if (eligible(m, all, avoid, nowNanos)) {
        count++;
      }
    }
    return Math.max(1, count);
  }

  /** Two eligible members at random; the one with fewer pending calls per unit of weight. */
  private static ClusterMember leastPending(ClusterMember[] members, int available, boolean all,
      ClusterMember avoid, long nowNanos) {
    if (available == 1) {
      return nth(members, 0, all, avoid, nowNanos);
    }
    ThreadLocalRandom random = ThreadLocalRandom.current();
    int first = random.nextInt(available);
    int second = random.nextInt(available - 1);
    if (second >= first) {
      second++;
    }
    ClusterMember a = nth(members, first, all, avoid, nowNanos);
    ClusterMember b = nth(members, second, all, avoid, nowNanos);
    return cost(a, b) <= 0 ? a : b;
  }

  /**
   * Negative if {@code a} is the better choice: (pending + 1) / weight compared by cross-multiplying; an
   * instance of weight 0 loses to any other.
   */
  private static long cost(ClusterMember a, ClusterMember b) {
    long wa = a.instance().weight();
    long wb = b.instance().weight();
    if (wa == 0 || wb == 0) {
      return wa == wb ? Long.compare(a.pendingCalls(), b.pendingCalls()) : (wa == 0 ? 1 : -1);
    }
    return (a.pendingCalls() + 1L) * wb - (b.pendingCalls() + 1L) * wa;
  }
}
