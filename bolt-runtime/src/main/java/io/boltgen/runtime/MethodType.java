package io.boltgen.runtime;

/** How many messages a method's call carries each way. */
public enum MethodType {
  /** Request type 0x01: the server answers with one response frame. */
  REQUEST_RESPONSE,
  /** Request type 0x02: the server never answers. */
  ONEWAY,
  /**
   * One request, then a stream of answers, which the server's handler gives as a
   * {@link java.util.concurrent.Flow.Publisher} ({@link ServerCall#respondStream}). Served over gRPC; Bolt and
   * Connect carry one answer per call and refuse it ({@link ResponseStatus#NO_PROCESSOR}).
   */
  SERVER_STREAMING
}
