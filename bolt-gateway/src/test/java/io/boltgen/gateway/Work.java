package io.boltgen.gateway;

import io.boltgen.annotation.BoltService;
import io.boltgen.annotation.Idempotent;

/** The gateway tests' service: calls that take a while, answered with the port of the instance that ran them. */
@BoltService(name = "gw.Work", version = "1.0")
public interface Work {

  /** Waits {@code millis}, then answers with the instance's port. Not idempotent: never sent twice once written. */
  int hold(int millis);

  /** The same, marked idempotent: sent again to another instance when its own fails. */
  @Idempotent
  int holdIdempotent(int millis);

  /** The request header {@code name} as the instance received it, then {@code |} and the caller's timeout in ms. */
  String context(String name);
}
