package io.boltgen.spring.sample;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/** Holds slow calls until the test opens it; tells the test when a slow call has arrived. */
public final class Gate {

  private final Semaphore arrived = new Semaphore(0);
  private final CountDownLatch open = new CountDownLatch(1);

  void pass() throws InterruptedException {
    arrived.release();
    if (!open.await(30, TimeUnit.SECONDS)) {
      throw new IllegalStateException("the test never opened the gate");
    }
  }

  /** Waits until a slow call is being handled. */
  public void awaitArrival() throws InterruptedException {
    if (!arrived.tryAcquire(30, TimeUnit.SECONDS)) {
      throw new AssertionError("no slow call arrived");
    }
  }

  /** Lets every slow call answer. */
  public void open() {
    open.countDown();
  }
}
