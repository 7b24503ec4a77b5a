package io.boltgen.bench.codec.hessian;

import java.io.Serializable;

/** {@link io.boltgen.bench.codec.model.LineItem} for Hessian2. */
public class HLineItem implements Serializable {
  private static final long serialVersionUID = 1L;

  public String sku;
  public String title;
  public long quantity;
  public long priceCents;

  public HLineItem() {}
}
