package io.boltgen.micrometer;

import io.micrometer.common.KeyValues;

/**
 * The default names of calls served: the observation (and so the timer) {@value #NAME}; spans named
 * {@code service/method}; low-cardinality {@code service}, {@code method}, {@code status}, {@code side=server};
 * high-cardinality {@code remote.address} (see {@link BoltKeyValues}).
 */
public class DefaultBoltServerObservationConvention implements BoltServerObservationConvention {

  /** The observation's name, and so the timer's. */
  public static final String NAME = "boltgen.server.calls";

  /** A shared instance (stateless). */
  public static final DefaultBoltServerObservationConvention INSTANCE = new DefaultBoltServerObservationConvention();

  @Override
  public String getName() {
    return NAME;
  }

  @Override
  public String getContextualName(BoltServerObservationContext context) {
    return context.getMethod().serviceName() + '/' + context.getMethod().methodName();
  }

  @Override
  public KeyValues getLowCardinalityKeyValues(BoltServerObservationContext context) {
    return BoltKeyValues.lowCardinality(context.getMethod(), context.getStatus(), "server");
  }

  @Override
  public KeyValues getHighCardinalityKeyValues(BoltServerObservationContext context) {
    return BoltKeyValues.highCardinality(context.getRemoteAddress());
  }
}
