package io.boltgen.runtime.cluster;

/**
 * How a client picks the instance of a service a call goes to, among those not ejected for failing.
 * Chosen per client, per channel or per call.
 */
public enum BalancingPolicy {

  /** Each instance in turn. Ignores weights. */
  ROUND_ROBIN,

  /** At random, each instance with a probability proportional to its weight (an instance of weight 0 never). */
  WEIGHTED_RANDOM,

  /**
   * The default: two instances drawn at random in proportion to their weights, then the one with fewer calls
   * waiting for their answer ("power of two choices"). Idle, calls follow the weights; under load they move
   * away from a slow instance within a few calls.
   */
  LEAST_PENDING
}
