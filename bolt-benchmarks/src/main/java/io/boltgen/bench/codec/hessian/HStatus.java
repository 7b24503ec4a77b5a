package io.boltgen.bench.codec.hessian;

/** {@link io.boltgen.bench.codec.model.Status} for Hessian2. */
public enum HStatus {
  NEW,
  PAID,
  SHIPPED,
  CANCELLED
}
