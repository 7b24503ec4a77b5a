package io.boltgen.runtime.internal;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;

/**
 * The default connection limit of a server: what the process can still open, measured once the server's
 * own threads (and their epoll and event descriptors) exist, so that refusing a connection beyond the
 * limit (which takes a descriptor for a moment) still has room.
 *
 * <p>Stateless.
 */
public final class FileDescriptors {

  /** Connections a server keeps open at once, unless the open-file limit is lower. */
  static final int MAX_CONNECTIONS = 10_000;

  private FileDescriptors() {}

  /**
   * {@value #MAX_CONNECTIONS}, or three quarters of the file descriptors this process has left (its
   * open-file limit less those open now) when that is lower: a server must run out of connections before the
   * process runs out of descriptors, because a connection beyond the limit still needs one to be told so,
   * and clients left in the accept backlog of a process without descriptors wait without an answer.
   */
  public static int defaultMaxConnections() {
    long[] files = openFiles();
    if (files == null) {
      return MAX_CONNECTIONS;
    }
    long left = Math.max(0, files[1] - files[0]);
    return (int) Math.max(1, Math.min(MAX_CONNECTIONS, left * 3 / 4));
  }

  /** {open, limit} file descriptors of this process, or null when the JVM cannot tell. */
  private static long[] openFiles() {
    try {
      OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
      if (os instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
        long limit = unix.getMaxFileDescriptorCount();
        long open = unix.getOpenFileDescriptorCount();
        return limit > 0 && open >= 0 ? new long[] {open, limit} : null;
      }
    } catch (RuntimeException | LinkageError e) {
      // not known here
    }
    return null;
  }
}
