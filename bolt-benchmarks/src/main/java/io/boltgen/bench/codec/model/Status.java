package io.boltgen.bench.codec.model;

/** An order's state; the constant order is the wire numbering (0 = NEW). */
public enum Status {
  NEW,
  PAID,
  SHIPPED,
  CANCELLED
}
