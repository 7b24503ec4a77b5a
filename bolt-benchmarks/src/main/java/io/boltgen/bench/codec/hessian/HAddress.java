package io.boltgen.bench.codec.hessian;

import java.io.Serializable;

/** {@link io.boltgen.bench.codec.model.Address} for Hessian2. */
public class HAddress implements Serializable {
  private static final long serialVersionUID = 1L;

  public String street;
  public String city;
  public String zip;
  public String country;

  public HAddress() {}
}
