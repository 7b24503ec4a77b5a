package io.boltgen.runtime.internal.cluster;

import io.boltgen.runtime.cluster.BalancingPolicy;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Picks the instance a call goes to, by a {@link BalancingPolicy} policy, among the members that are not
 * ejected, weigh more than 0, and are not the one a retry avoids. When no member is left it picks among all
 * of them (better a call to an instance that may have recovered than no call at all). Whatever the policy,
 * a member at its capacity (its {@code maxConcurrentCalls}; while it is stalled, one probe per stall timeout) is
 * never picked:
 * when every member is full there is no pick, and the call waits for a place ({@link ClusterTarget}). A
 * member counts as stalled only while another is not (when all owe answers, the calls are just slow).
 * Allocates one small record per pick.
 *
 * <p>Thread-safe: the round-robin counter is atomic; everything else reads the members given.
 */
final class Balancer {

  private final AtomicInteger next = new AtomicInteger();

  /**
   * Whether {@code m} counts as stalled: it owes answers for longer than {@code stallNanos} while some other
   * member does not ({@code someAnswer}).
   */
  static boolean stalled(ClusterMember m, boolean someAnswer, long nowNanos, long stallNanos) {
    return someAnswer && m.isStalled(nowNanos, stallNanos);
  }

  /** Whether some member of {@code members} is not stalled (with {@code stallNanos} 0, none is). */
  static boolean someAnswer(ClusterMember[] members, long nowNanos, long stallNanos) {
    if (stallNanos <= 0) {
      return false;
    }
    for (ClusterMember m : members) {
      if (!m.isStalled(nowNanos, stallNanos)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The member a call goes to, or {@code null} if every member is full (or there is none). {@code avoid}
   * (may be null) is taken only if nothing else is available; {@code someAnswer} is
   * {@link #someAnswer(ClusterMember[], long, long)} of the same members and instant.
   */
  ClusterMember pick(BalancingPolicy policy, ClusterMember[] members, ClusterMember avoid, long nowNanos,
      long stallNanos, boolean someAnswer) {
    int n = members.length;
    if (n == 0) {
      return null;
    }
    if (n == 1) {
      ClusterMember only = members[0];
      return only.hasRoom(stalled(only, someAnswer, nowNanos, stallNanos), nowNanos, stallNanos) ? only : null;
    }
    int available = 0;
    int roomy = 0;
    for (ClusterMember m : members) {
      if (m.hasRoom(stalled(m, someAnswer, nowNanos, stallNanos), nowNanos, stallNanos)) {
        roomy++;
        if (m != avoid && m.isAvailable(nowNanos) && m.instance().weight() > 0) {
          available++;
        }
      }
    }
    if (roomy == 0) {
      return null;
    }
    boolean all = available == 0; // every member with room ejected, avoided or of weight 0: pick among them
    Pick pick = new Pick(all, avoid, nowNanos, stallNanos, someAnswer);
    switch (policy) {
      case ROUND_ROBIN:
        return nth(members, Math.floorMod(next.getAndIncrement(), all ? roomy : available), pick);
      case WEIGHTED_RANDOM:
        return draw(members, pick, null);
      case LEAST_PENDING:
      default:
        return leastPending(members, pick);
    }
  }

  /** What one pick takes into account. */
  private record Pick(boolean all, ClusterMember avoid, long nowNanos, long stallNanos, boolean someAnswer) {
    boolean eligible(ClusterMember m) {
      return m.hasRoom(stalled(m, someAnswer, nowNanos, stallNanos), nowNanos, stallNanos)
          && (all || (m != avoid && m.isAvailable(nowNanos) && m.instance().weight() > 0));
    }
  }

  private static ClusterMember nth(ClusterMember[] members, int index, Pick pick) {
    int seen = 0;
    ClusterMember first = null;
    for (ClusterMember m : members) {
      if (pick.eligible(m)) {
        if (seen == index) {
          return m;
        }
        if (first == null) {
          first = m;
        }
        seen++;
      }
    }
    return first; // the set of available members changed while we counted
  }

  /**
   * One eligible member other than {@code except}, with a probability proportional to its weight (uniform
   * when every candidate weighs 0); {@code null} if there is none.
   */
  private static ClusterMember draw(ClusterMember[] members, Pick pick, ClusterMember except) {
    long total = 0;
    int count = 0;
    for (ClusterMember m : members) {
      if (m != except && pick.eligible(m)) {
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
      if (m != except && pick.eligible(m)) {
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
  private static ClusterMember leastPending(ClusterMember[] members, Pick pick) {
    ClusterMember a = draw(members, pick, null);
    ClusterMember b = a == null ? null : draw(members, pick, a);
    if (b == null) {
      return a;
    }
    if (b.instance().weight() == 0 && a.instance().weight() > 0) {
      return a; // drawn only because nothing else was left to draw
    }
    return b.pendingCalls() < a.pendingCalls() ? b : a;
  }
}
