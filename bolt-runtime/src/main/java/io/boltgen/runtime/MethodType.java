package io.boltgen.runtime;

/** How many messages a method's call carries each way. */
public enum MethodType {
  /** Request type 0x01: the server answers with one response frame. */
  REQUEST_RESPONSE,
  /** Request type 0x02: the server never answers. */
  ONEWAY,
  /**
   * One request, then a stream of answers, which the server's handler gives as a
   * {@link java.util.concurrent.Flow.Publisher} ({@link ServerCall#respondStream}). A SOFABolt caller cannot call
   * it (its protocol carries one answer per call): it is refused {@link ResponseStatus#NO_PROCESSOR}.
   */
  SERVER_STREAMING,
  /**
   * A stream of requests, then one answer: the server's handler is given the caller's messages as a
   * {@link java.util.concurrent.Flow.Publisher} (its request) and answers with {@link ServerCall#respond} once it
   * has read what it needs. Refused {@link ResponseStatus#NO_PROCESSOR} by a transport that carries one request
   * per call.
   */
  CLIENT_STREAMING,
  /**
   * A stream of requests and a stream of answers, each going at its own pace: the handler is given the caller's
   * messages as a {@link java.util.concurrent.Flow.Publisher} and answers with
   * {@link ServerCall#respondStream}.
   */
  BIDI_STREAMING;

  /** Whether the caller sends any number of messages (client streaming and bidirectional). */
  public boolean streamsRequests() {
    return this == CLIENT_STREAMING || this == BIDI_STREAMING;
  }

  /** Whether the server answers with any number of messages (server streaming and bidirectional). */
  public boolean streamsAnswers() {
    return this == SERVER_STREAMING || this == BIDI_STREAMING;
  }
}
