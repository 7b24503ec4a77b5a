package io.boltgen.cluster.it;

import io.boltgen.annotation.BoltService;
import io.boltgen.annotation.Idempotent;

/** What the cluster tests call: a read that may run twice, and a write that must not. */
@BoltService(name = "it.Counter", version = "1.0", timeoutMillis = 5000)
public interface Counter {

  /** The instance's count. */
  @Idempotent
  long read();

  /** Adds {@code delta} to the instance's count and returns the new count. */
  long add(long delta);

  /** The port the answering instance listens on. */
  @Idempotent
  int port();
}
