package io.boltgen.runtime.internal;

import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.ResponseStatus;
import java.net.SocketAddress;
import java.util.Map;

/**
 * Reads an error response into a {@link BoltException}: the remote exception's class and message come
 * from our error header entries when a boltgen peer sent them, else from the Hessian-serialized Throwable a
 * SOFABolt peer puts in the body (whose "[Server]OriginErrorMsg: cls: msg. AdditionalErrorMsg: …"
 * message is taken apart).
 */
final class RemoteErrors {

  private static final String ORIGIN = "[Server]OriginErrorMsg: ";
  private static final String ADDITIONAL = ". AdditionalErrorMsg: ";

  private RemoteErrors() {}

  static BoltException toException(BoltFrame frame, ResponseStatus status, String wireName, SocketAddress remote) {
    String remoteClass = null;
    String remoteMessage = null;
    if (frame.headersLength() > 0) {
      try {
        Map<String, String> header = HeadersCodec.read(frame.headers());
        remoteClass = header.get(ErrorHeaders.ERROR_CLASS);
        remoteMessage = header.get(ErrorHeaders.ERROR_MESSAGE);
      } catch (RuntimeException ignored) {
        // foreign header entries: fall back to the body
      }
    }
    if (remoteClass == null && remoteMessage == null && frame.contentLength() > 0
        && frame.codec() == Bolt.CODEC_HESSIAN2) {
      HessianErrors.RemoteThrowable thrown = HessianErrors.readThrowable(frame.content());
      if (thrown != null) {
        remoteClass = thrown.className();
        remoteMessage = thrown.message();
        String origin = originOf(remoteMessage);
        if (origin != null) {
          int colon = origin.indexOf(": ");
          remoteClass = colon < 0 ? origin : origin.substring(0, colon);
          remoteMessage = colon < 0 ? null : origin.substring(colon + 2);
        }
      }
    }
    StringBuilder message = new StringBuilder()
        .append(status).append(" from ").append(remote).append(" for ").append(wireName)
        .append(" (request id ").append(frame.requestId()).append(')');
    if (remoteClass != null || remoteMessage != null) {
      message.append(": ");
      if (remoteClass != null) {
        message.append(remoteClass);
        if (remoteMessage != null) {
          message.append(": ");
        }
      }
      if (remoteMessage != null) {
        message.append(remoteMessage);
      }
    }
    return new BoltException(status, message.toString(), remoteClass, remoteMessage, remote, frame.requestId(), null);
  }

  /** The "cls: msg" part of a SOFABolt server error message, or {@code null}. */
  private static String originOf(String message) {
    if (message == null || !message.startsWith(ORIGIN)) {
      return null;
    }
    int end = message.lastIndexOf(ADDITIONAL);
    return end < 0 ? message.substring(ORIGIN.length()) : message.substring(ORIGIN.length(), end);
  }
}
