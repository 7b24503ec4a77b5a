package io.boltgen.bench.codec.hessian;

import java.io.Serializable;
import java.util.List;
import java.util.Map;

/**
 * {@link io.boltgen.bench.codec.model.Order} as the plain Java class a SOFABolt user serializes with
 * Hessian2 (which sets fields reflectively, so records will not do).
 */
public class HOrder implements Serializable {
  private static final long serialVersionUID = 1L;

  public long id;
  public String customerId;
  public HAddress shipTo;
  public List<HLineItem> items;
  public Map<String, Long> attributes;
  public HStatus status;
  public long createdAtMillis;
  public String note;

  public HOrder() {}
}
