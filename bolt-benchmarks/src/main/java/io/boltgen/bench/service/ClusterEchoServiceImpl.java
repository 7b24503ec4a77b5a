package io.boltgen.bench.service;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * One instance of {@link ClusterEchoService}. A fast one answers at once; a slow one answers after its
 * delay, scheduled on a timer: no thread waits meanwhile, so the instance is slow per call (every call takes
 * the delay more) but never saturated (calls do not queue behind one another).
 */
public final class ClusterEchoServiceImpl implements ClusterEchoService {

  private final int instance;
  private final long delayMillis;
  private final ScheduledExecutorService timer;

  /**
   * @param instance this instance's index
   * @param delayMillis the extra delay of every answer; 0 for none
   * @param timer completes delayed answers; unused when {@code delayMillis} is 0
   */
  public ClusterEchoServiceImpl(int instance, long delayMillis, ScheduledExecutorService timer) {
    this.instance = instance;
    this.delayMillis = delayMillis;
    this.timer = timer;
  }

  @Override
  @SuppressWarnings("FutureReturnValueIgnored") // completing the answer cannot fail
  public CompletableFuture<ClusterEchoReply> echo(byte[] payload) {
    ClusterEchoReply reply = new ClusterEchoReply(instance, payload);
    if (delayMillis <= 0) {
      return CompletableFuture.completedFuture(reply);
    }
    CompletableFuture<ClusterEchoReply> answer = new CompletableFuture<>();
    timer.schedule(() -> answer.complete(reply), delayMillis, TimeUnit.MILLISECONDS);
    return answer;
  }
}
