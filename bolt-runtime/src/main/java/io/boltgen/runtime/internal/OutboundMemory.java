package io.boltgen.runtime.internal;

import io.boltgen.runtime.support.RateLimitedLog;
import java.lang.management.ManagementFactory;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.LoggerFactory;

/**
 * The process-wide account of outbound bytes: frames encoded and waiting in write queues, and bytes the
 * channels hold and have not written to their sockets yet, summed over every connection of every client
 * and server. Each write queue reports its own bytes when they moved by {@value #REPORT_STEP} bytes or
 * more (see {@link WriteQueue#report()}). When the sum exceeds the limit, the connections holding the most
 * are closed, one log line each, until the rest fits: a few peers that stopped reading (or a burst of huge
 * requests) cost their own connections, not the process.
 *
 * <p>The limit is the system property {@value #LIMIT_PROPERTY} (bytes), read when the shared resources
 * start; by default half of the JVM's direct-memory limit. Thread-safe.
 */
final class OutboundMemory {

  /** The system property that sets the limit, in bytes. */
  static final String LIMIT_PROPERTY = "boltgen.outbound.maxBytes";

  /** Moves smaller than this are not reported: the account is about megabytes, not single frames. */
  static final long REPORT_STEP = 64 * 1024;

  private static final RateLimitedLog shedLog = RateLimitedLog.of(LoggerFactory.getLogger(OutboundMemory.class));

  private final long limit;
  private final AtomicLong total = new AtomicLong();
  private final Set<WriteQueue> queues = ConcurrentHashMap.newKeySet();
  private final AtomicBoolean shedding = new AtomicBoolean();

  OutboundMemory(long limit) {
    if (limit <= 0) {
      throw new IllegalArgumentException(LIMIT_PROPERTY + " must be positive: " + limit);
    }
    this.limit = limit;
  }

  /** The limit from {@value #LIMIT_PROPERTY}, else half of the JVM's direct-memory limit. */
  static OutboundMemory fromSystemProperties() {
    String configured = System.getProperty(LIMIT_PROPERTY);
    if (configured != null) {
      try {
        return new OutboundMemory(Long.parseLong(configured.trim()));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(LIMIT_PROPERTY + " is not a number of bytes: " + configured, e);
      }
    }
    return new OutboundMemory(Math.max(64L << 20, maxDirectMemory() / 2));
  }

  /** -XX:MaxDirectMemorySize when set, else the JVM's default for it: the maximum heap size. */
  static long maxDirectMemory() {
    try {
      com.sun.management.HotSpotDiagnosticMXBean hotspot =
          ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);
      long configured = Long.parseLong(hotspot.getVMOption("MaxDirectMemorySize").getValue());
      if (configured > 0) {
        return configured;
      }
    } catch (RuntimeException | LinkageError e) {
      // not a HotSpot JVM: fall back to its default
    }
    return Runtime.getRuntime().maxMemory();
  }

  /** The limit, in bytes. */
  long limit() {
    return limit;
  }

  /** The bytes accounted right now. */
  long total() {
    return total.get();
  }

  void register(WriteQueue queue) {
    queues.add(queue);
  }

  /** Forgets {@code queue}, whose connection closed and reported its last bytes (zero). */
  void unregister(WriteQueue queue) {
    queues.remove(queue);
  }

  /** A queue now holds {@code delta} bytes more (or fewer) than it last reported. */
  void add(long delta) {
    long now = total.addAndGet(delta);
    if (delta > 0 && now > limit) {
      shed();
    }
  }

  /** Closes the connections holding the most until the rest fits the limit. */
  private void shed() {
    if (!shedding.compareAndSet(false, true)) {
      return; // another thread is choosing already
    }
    try {
      long effective = total.get();
      for (WriteQueue q : queues) {
        if (q.isShed()) {
          effective -= q.reported(); // closing already: its bytes go soon
        }
      }
      while (effective > limit) {
        WriteQueue worst = null;
        for (WriteQueue q : queues) {
          if (!q.isShed() && (worst == null || q.reported() > worst.reported())) {
            worst = q;
          }
        }
        if (worst == null || worst.reported() <= 0) {
          return;
        }
        shedLog.warn("closing connection to {}: it holds {} bytes of unsent frames, and the process's {} outbound"
            + " bytes exceed the limit of {} ({})", worst.channel().remoteAddress(), worst.reported(), effective,
            limit, LIMIT_PROPERTY);
        effective -= worst.reported();
        worst.shed();
      }
    } finally {
      shedding.set(false);
    }
  }
}
