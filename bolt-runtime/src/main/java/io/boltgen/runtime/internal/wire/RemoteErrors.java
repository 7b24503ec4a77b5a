package io.boltgen.runtime.internal.wire;

import io.boltgen.hessian.HessianReader;
import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.PeerNotAuthorizedException;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.support.MessageText;
import java.net.SocketAddress;
import java.util.Map;

/**
 * Reads an error response into a {@link BoltException}: the remote exception's class and message come
 * from our error header entries when a boltgen peer sent them, else from the Hessian-serialized Throwable a
 * SOFABolt peer puts in the body (its message taken apart, see {@link ErrorFormat}).
 *
 * <p>Stateless.
 */
public final class RemoteErrors {

  private RemoteErrors() {}

  public static BoltException toException(BoltFrame frame, ResponseStatus status, String wireName,
      SocketAddress remote) {
    String remoteClass = null;
    String remoteMessage = null;
    if (frame.headersLength() > 0) {
      try {
        Map<String, String> header = HeadersCodec.read(frame.headers());
        remoteClass = header.get(ErrorFormat.ERROR_CLASS);
        remoteMessage = header.get(ErrorFormat.ERROR_MESSAGE);
      } catch (RuntimeException ignored) {
        // foreign header entries: fall back to the body
      }
    }
    if (remoteClass == null && remoteMessage == null && frame.contentLength() > 0
        && frame.codec() == Bolt.CODEC_HESSIAN2) {
      HessianReader.RemoteThrowable thrown = HessianErrors.readThrowable(frame.content());
      if (thrown != null) {
        remoteClass = thrown.className();
        remoteMessage = thrown.message();
        String[] origin = ErrorFormat.origin(remoteMessage);
        if (origin != null) {
          remoteClass = origin[0];
          remoteMessage = origin[1];
        }
      }
    }
    StringBuilder message = new StringBuilder()
        .append(status).append(" from ").append(remote).append(" for ").append(wireName)
        .append(" (request id ").append(frame.requestId()).append(')');
    if (remoteClass != null || remoteMessage != null) {
      message.append(": ");
      if (remoteClass != null) {
        message.append(MessageText.shorten(remoteClass));
        if (remoteMessage != null) {
          message.append(": ");
        }
      }
      if (remoteMessage != null) {
        message.append(MessageText.shorten(remoteMessage)); // the peer's own text stays whole in remoteMessage()
      }
    }
    if (PeerNotAuthorizedException.class.getName().equals(remoteClass)) {
      return new PeerNotAuthorizedException(message.toString(), remoteMessage, remote, frame.requestId());
    }
    return new BoltException(status, message.toString(), remoteClass, remoteMessage, remote, frame.requestId(), null);
  }

  /** Whether an attempt that ended with {@code error} (null: a result) was answered by its instance. */
  public static boolean isAnswer(Throwable error) {
    if (error == null) {
      return true;
    }
    if (!(error instanceof BoltException b)) {
      return false;
    }
    ResponseStatus status = b.status();
    return status != ResponseStatus.CONNECTION_CLOSED && status != ResponseStatus.ERROR_COMM
        && status != ResponseStatus.CLIENT_SEND_ERROR && status != ResponseStatus.TIMEOUT;
  }
}
