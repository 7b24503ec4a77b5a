package io.boltgen.runtime;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;

/** The defaults of the limits both builders set (docs/reliability.md lists them with what each protects). */
final class Limits {

  /** The largest frame accepted, and the largest a peer is assumed to accept: 16 MiB, both sides. */
  static final int MAX_FRAME_LENGTH = 16 * 1024 * 1024;

  /** The smallest frame limit that makes sense: one request header. */
  static final int MIN_FRAME_LENGTH = 24; // the fixed header of a V2 request, the largest fixed header

  /** Netty's write-buffer water marks, as SOFABolt sets them. */
  static final int LOW_WATER_MARK = 32 * 1024;
  static final int HIGH_WATER_MARK = 64 * 1024;

  /** Encoded frames one connection's write queue holds at most: four maximum-size frames. */
  static final long MAX_QUEUED_BYTES = 4L * MAX_FRAME_LENGTH;

  /** Requests of one connection open at once before the server stops reading it. */
  static final int MAX_REQUESTS_PER_CONNECTION = 1024;

  /** Time to finish a frame once its first byte arrived. */
  static final long FRAME_TIMEOUT_MILLIS = 10_000;

  /** Connections a server keeps open at once, unless the open-file limit is lower. */
  static final int MAX_CONNECTIONS = 10_000;

  private Limits() {}

  /**
   * {@value #MAX_CONNECTIONS}, or three quarters of the file descriptors this process has left (its
   * open-file limit less those open now) when that is lower: a server must run out of connections before the
   * process runs out of descriptors, because a connection beyond the limit still needs one to be told so,
   * and clients left in the accept backlog of a process without descriptors wait without an answer.
   */
  static int defaultMaxConnections() {
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
      if (os instanceof com.sun.management.UnixOperatingSystemMXBean) {
        com.sun.management.UnixOperatingSystemMXBean unix = (com.sun.management.UnixOperatingSystemMXBean) os;
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
