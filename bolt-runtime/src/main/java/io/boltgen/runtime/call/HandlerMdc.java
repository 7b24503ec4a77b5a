package io.boltgen.runtime.call;

import org.slf4j.MDC;
import org.slf4j.helpers.NOPMDCAdapter;

/**
 * The logging context of a running handler: while it runs, SLF4J's MDC holds the call's method
 * ({@code bolt.method}, its wire name {@code service:version/method}), caller ({@code bolt.remote}) and
 * request id ({@code bolt.requestId}), so that every line the handler logs can say which call it belongs to
 * (with a pattern such as {@code %X{bolt.method}}). Skipped entirely when the logging binding keeps no MDC.
 * Only the handler's own thread has it: work it hands to other threads does not.
 */
final class HandlerMdc {

  static final String METHOD = "bolt.method";
  static final String REMOTE = "bolt.remote";
  static final String REQUEST_ID = "bolt.requestId";

  private static final boolean ENABLED = !(MDC.getMDCAdapter() instanceof NOPMDCAdapter);

  private HandlerMdc() {}

  /** Puts a call's method, remote address and request id. */
  static void put(String wireName, String remote, int requestId) {
    if (ENABLED) {
      MDC.put(METHOD, wireName);
      MDC.put(REMOTE, remote);
      MDC.put(REQUEST_ID, Integer.toString(requestId));
    }
  }

  static void clear() {
    if (ENABLED) {
      MDC.remove(METHOD);
      MDC.remove(REMOTE);
      MDC.remove(REQUEST_ID);
    }
  }
}
