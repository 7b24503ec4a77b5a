package io.boltgen.runtime.codec;

import io.netty.buffer.ByteBuf;
import java.util.Map;

/**
 * The response marshaller of a protocol that answers a handler's failure inside a successful frame, as
 * SOFARPC does (its answers carry status 0 and say "failed" in the header and body), instead of with a Bolt
 * error status.
 *
 * <p>A server whose handler fails answers with {@link #failureHeaders} and {@link #writeFailure}; a client reads
 * every successful answer with {@link #read(ByteBuf, Map)}, which sees the frame's header and throws the
 * failure an answer carries. Failures found by the runtime itself (an unknown method, an undecodable request,
 * a full executor) keep their Bolt statuses, but for a request naming a service the server does not serve,
 * which the protocol may answer as its own servers do ({@link #unknownService}).
 *
 * @param <T> the type carried
 */
public interface FailureMarshaller<T> extends Marshaller<T> {

  /** The header entries of the answer carrying {@code failure}. */
  Map<String, String> failureHeaders(Throwable failure);

  /** The exact number of bytes {@link #writeFailure} will append for {@code failure}. */
  int failureSize(Throwable failure);

  /** Appends exactly {@link #failureSize failureSize(failure)} bytes: the body of the answer carrying it. */
  void writeFailure(Throwable failure, ByteBuf out);

  /**
   * The failure this protocol's own servers answer a request for a service they do not serve with, inside a
   * successful frame ({@link #failureHeaders} and {@link #writeFailure} write it); {@code null}, the default, has
   * the runtime refuse the request with a Bolt error status instead.
   *
   * @param service what the request's routing headers name as its service (all but the last, the method), as
   *     sent, cut to 200 characters
   */
  default Throwable unknownService(String service) {
    return null;
  }

  /**
   * Reads a successful frame's content, knowing its header (empty when it has none).
   *
   * @throws io.boltgen.runtime.BoltException the failure the answer carries (usually {@code SERVER_EXCEPTION}
   *     naming the remote exception's class, which the method's error mapper turns into a declared exception)
   * @throws RuntimeException if the bytes are malformed; the runtime reports it as a codec error
   */
  T read(ByteBuf in, Map<String, String> headers);
}
