package io.boltgen.testing;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.netty.buffer.ByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * Records every leak Netty's detector reports, so that a test can fail on it instead of a log line going
 * unread. Installed once per JVM by {@link LeakDetectionInstaller}.
 */
public final class LeakRecorder {

  @GuardedBy("LEAKS")
  private static final List<String> LEAKS = new ArrayList<>();
  private static volatile boolean installed;

  private LeakRecorder() {}

  /**
   * Installs the recording factory; must run before the first {@code ByteBuf} class is initialised. The
   * test launcher does it for tests; a tool (the runtime tests' frame fuzzer) calls it itself.
   */
  public static synchronized void install() {
    if (installed) {
      return;
    }
    ResourceLeakDetectorFactory.setResourceLeakDetectorFactory(new RecordingFactory());
    installed = true;
  }

  /** Whether the recording detector is in place (false if some buffer class was initialised first). */
  public static boolean isInstalled() {
    return installed;
  }

  /**
   * Forces collections and buffer allocations so that the detector reports what has become unreachable,
   * then returns (and forgets) every leak reported so far.
   */
  public static List<String> collect() {
    for (int round = 0; round < 5; round++) {
      System.gc();
      // Each tracked allocation drains the detector's reference queue and reports what it finds.
      for (int i = 0; i < 64; i++) {
        ByteBufAllocator.DEFAULT.directBuffer(8).release();
        ByteBufAllocator.DEFAULT.heapBuffer(8).release();
      }
    }
    synchronized (LEAKS) {
      List<String> copy = new ArrayList<>(LEAKS);
      LEAKS.clear();
      return copy;
    }
  }

  static void record(String report) {
    synchronized (LEAKS) {
      LEAKS.add(report);
    }
  }

  private static final class RecordingFactory extends ResourceLeakDetectorFactory {
    @Override
    @SuppressWarnings("deprecation") // abstract in the factory, so it must be implemented; Netty still calls it
    public <T> ResourceLeakDetector<T> newResourceLeakDetector(
        Class<T> resource, int samplingInterval, long maxActive) {
      return new RecordingDetector<>(resource, samplingInterval);
    }

    @Override
    public <T> ResourceLeakDetector<T> newResourceLeakDetector(Class<T> resource, int samplingInterval) {
      return new RecordingDetector<>(resource, samplingInterval);
    }
  }

  private static final class RecordingDetector<T> extends ResourceLeakDetector<T> {
    RecordingDetector(Class<T> resource, int samplingInterval) {
      super(resource, samplingInterval);
    }

    @Override
    protected boolean needReport() {
      return true;
    }

    @Override
    protected void reportTracedLeak(String resourceType, String records) {
      super.reportTracedLeak(resourceType, records);
      record("LEAK: " + resourceType + ".release() was not called before it was garbage-collected." + records);
    }

    @Override
    protected void reportUntracedLeak(String resourceType) {
      super.reportUntracedLeak(resourceType);
      record("LEAK: " + resourceType + ".release() was not called before it was garbage-collected.");
    }
  }
}
