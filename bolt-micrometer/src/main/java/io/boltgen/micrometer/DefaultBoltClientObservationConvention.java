package io.boltgen.micrometer;

import io.micrometer.common.KeyValues;

/**
 * The default names of calls sent: the observation (and so the timer) {@value #NAME}; spans named
 * {@code service/method}; low-cardinality {@code service}, {@code method}, {@code status}, {@code side=client};
 * high-cardinality {@code remote.address} (see {@link BoltKeyValues}).
 */
public class DefaultBoltClientObservationConvention implements BoltClientObservationConvention {

  /** The observation's name, and so the timer's. */
  public static final String NAME = "boltgen.client.calls";

  /** A shared instance (stateless). */
  public static final DefaultBoltClientObservationConvention INSTANCE = new DefaultBoltClientObservationConvention();

  @Override
  public String getName() {
    return NAME;
  }

  @Override
  public String getContextualName(BoltClientObservationContext context) {
    return context.getMethod().serviceName() + '/' + context.getMethod().methodName();
  }

  @Override
  public KeyValues getLowCardinalityKeyValues(BoltClientObservationContext context) {
    return BoltKeyValues.lowCardinality(context.getMethod(), context.getStatus(), "client");
  }

  @Override
  public KeyValues getHighCardinalityKeyValues(BoltClientObservationContext context) {
    return BoltKeyValues.highCardinality(context.getRemoteAddress());
  }
}
