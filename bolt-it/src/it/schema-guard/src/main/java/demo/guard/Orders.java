package demo.guard;

import io.boltgen.annotation.BoltService;

/** Places orders. */
@BoltService(name = "demo.Orders", version = "1.0")
public interface Orders {

  /** Places an order; the answer is its id. */
  String place(Order order);
}
