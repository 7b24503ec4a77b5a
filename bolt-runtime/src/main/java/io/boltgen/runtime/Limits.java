package io.boltgen.runtime;

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

  private Limits() {}
}
