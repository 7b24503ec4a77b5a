package io.boltgen.runtime.cluster;

/**
 * How a client picks the instance of a service a call goes to, among those not ejected for failing.
 * Chosen per client, per channel or per call.
 */
public enum LoadBalancer {

  /** Each instance in turn. Ignores weights. */
  ROUND_ROBIN,

  /** At random, each instance with a probability proportional to its weight (an instance of weight 0 never). */
  WEIGHTED_RANDOM,

  /**
   * The default: two instances at random, then the one with fewer calls waiting for their answer per unit of
   * weight ("power of two choices"). Moves calls away from a slow instance within a few calls.
   */
  LEAST_PENDING
}
