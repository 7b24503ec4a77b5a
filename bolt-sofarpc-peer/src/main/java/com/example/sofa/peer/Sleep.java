package com.example.sofa.peer;

/** Sleeping in the peer (slow calls, polling for oneway pings), with the interrupt status kept. */
final class Sleep {
  private Sleep() {}

  static void millis(long millis) {
    try {
      Thread.sleep(Math.max(0, millis));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
