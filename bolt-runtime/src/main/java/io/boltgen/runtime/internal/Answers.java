package io.boltgen.runtime.internal;

import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.codec.FailureMarshaller;
import io.boltgen.runtime.codec.Marshaller;
import io.boltgen.runtime.internal.wire.BoltFrame;
import io.boltgen.runtime.internal.wire.HeadersCodec;
import io.boltgen.runtime.internal.wire.RemoteErrors;
import io.boltgen.runtime.internal.wire.StreamFrames;
import io.netty.buffer.ByteBuf;
import java.net.SocketAddress;
import java.util.HashMap;
import java.util.Map;

/**
 * Answers as a client reads them into its calls ({@link #complete}), and answers of protocols that carry
 * failures inside successful frames ({@link FailureMarshaller}, SOFARPC's): how a client reads them, and how
 * a server writes a handler's failure as one.
 *
 * <p>Stateless.
 */
public final class Answers {

  private Answers() {}

  /**
   * Completes {@code call} with its answer {@code frame} (taken from its connection's call table on the IO
   * thread): the decoded response, or the failure the frame's status or its body carries. Decodes on this
   * thread; the caller keeps ownership of the frame.
   */
  static <R> void complete(PendingCall<R> call, BoltFrame frame) {
    SocketAddress remoteAddress = call.remoteAddress();
    ResponseStatus status = ResponseStatus.fromCode(frame.status());
    if (status != ResponseStatus.SUCCESS) {
      call.fail(RemoteErrors.toException(frame, status, call.method().toString(), remoteAddress));
      return;
    }
    R value;
    try {
      value = read(call.method().responseMarshaller(), frame);
    } catch (BoltException e) {
      call.fail(from(e, remoteAddress, frame.requestId())); // the failure the answer carries
      return;
    } catch (RuntimeException e) {
      call.fail(new BoltException(ResponseStatus.CODEC_EXCEPTION, "could not decode the response of "
          + call.method().toString() + " from " + remoteAddress + " (request id " + frame.requestId() + "): " + e,
          null, null, remoteAddress, frame.requestId(), e));
      return;
    }
    if (call.told() instanceof StreamListener<R> started && frame.headersLength() > 0) {
      started.trailers(HeadersCodec.read(frame.headers()));
    }
    call.succeed(value);
  }

  /**
   * Hands {@code frame}, an answer to the streaming {@code call} (taken from its connection's call table on the IO
   * thread), to the call: a message goes to its listener and the call waits in its table again; the end completes
   * it; an error fails it. An answer that is no stream's (a SOFABolt server's, or one of a boltgen server whose
   * method does not stream) fails it {@code NO_PROCESSOR}, saying so: a SOFABolt server answers a stream's request
   * at once, whether it has a processor for it or not. The caller keeps ownership of the frame.
   */
  static <R> void stream(PendingCall<R> call, BoltFrame frame, BoltConnection connection) {
    ResponseStatus status = ResponseStatus.fromCode(frame.status());
    Map<String, String> headers;
    try {
      headers = frame.headersLength() == 0 ? Map.of() : HeadersCodec.read(frame.headers());
    } catch (RuntimeException e) {
      headers = Map.of();
    }
    String kind = status == ResponseStatus.SUCCESS ? headers.get(StreamFrames.HEADER) : null;
    if (status != ResponseStatus.SUCCESS && status != ResponseStatus.NO_PROCESSOR) {
      complete(call, frame); // the stream failed, as a unary call fails
    } else if (StreamFrames.MESSAGE.equals(kind) && call.told() instanceof StreamedMessages<R> messages) {
      if (call.rejoin()) {
        message(call, frame, messages, connection);
      }
    } else if (StreamFrames.CREDIT.equals(kind) && call.outgoing() != null) {
      // the server takes more of the caller's messages: what waits goes, and a caller that could not send is told
      if (call.rejoin()) {
        call.outgoing().granted(connection, StreamFrames.grantedCredit(headers));
      }
    } else if (StreamFrames.END.equals(kind) && call.told() instanceof StreamedMessages<R> messages) {
      Map<String, String> trailers = new HashMap<>(headers);
      trailers.remove(StreamFrames.HEADER);
      messages.trailers(trailers);
      call.succeed(null);
    } else {
      String why = status == ResponseStatus.NO_PROCESSOR
          ? RemoteErrors.toException(frame, status, call.method().toString(), connection.remoteAddress()).getMessage()
          : "it answered with one message";
      call.fail(new BoltException(ResponseStatus.NO_PROCESSOR, "the server " + connection.remoteAddress()
          + " does not stream " + call.method().toString() + " (a SOFABolt server has no streams): " + why, null, null,
          connection.remoteAddress(), frame.requestId(), null));
    }
  }

  /** One message of a stream, decoded here and handed to its listener; a stream's call fails if it cannot be. */
  private static <R> void message(PendingCall<R> call, BoltFrame frame, StreamedMessages<R> messages,
      BoltConnection connection) {
    SocketAddress remoteAddress = connection.remoteAddress();
    R value;
    try {
      value = read(call.method().responseMarshaller(), frame);
    } catch (RuntimeException e) {
      call.fail(new BoltException(ResponseStatus.CODEC_EXCEPTION, "could not decode a message of "
          + call.method().toString() + " from " + remoteAddress + " (request id " + frame.requestId() + "): " + e,
          null, null, remoteAddress, frame.requestId(), e));
      return;
    }
    if (!messages.onMessage(value, connection.streams(), frame.requestId())) {
      call.fail(new BoltException(ResponseStatus.ERROR_COMM, "the server " + remoteAddress + " sent more messages of "
          + call.method().toString() + " than the " + StreamedMessages.WINDOW + " it was granted (request id "
          + frame.requestId() + ")", null, null, remoteAddress, frame.requestId(), null));
    }
  }

  /**
   * Reads the content of the successful answer {@code frame}.
   *
   * @throws BoltException the failure the answer carries
   */
  static <R> R read(Marshaller<R> marshaller, BoltFrame frame) {
    if (marshaller instanceof FailureMarshaller<R> answers) {
      return answers.read(frame.content(), frame.headersLength() == 0 ? Map.of() : HeadersCodec.read(frame.headers()));
    }
    return marshaller.read(frame.content());
  }

  /** {@code carried}, the failure an answer carried, with where it came from. */
  static BoltException from(BoltException carried, SocketAddress remoteAddress, int requestId) {
    return new BoltException(carried.status(), carried.getMessage() + " (" + remoteAddress + ", request id "
        + requestId + ")", carried.remoteClassName(), carried.remoteMessage(), remoteAddress, requestId, null,
        carried.remoteException());
  }

  /** The failure {@code failure} as the body of a successful answer, written by {@code answers}. */
  public static Marshaller<Throwable> failureBody(FailureMarshaller<?> answers) {
    return new Marshaller<>() {
      @Override
      public byte codecId() {
        return answers.codecId();
      }

      @Override
      public int encodedSize(Throwable failure) {
        return answers.failureSize(failure);
      }

      @Override
      public void write(Throwable failure, ByteBuf out) {
        answers.writeFailure(failure, out);
      }

      @Override
      public Throwable read(ByteBuf in) {
        throw new UnsupportedOperationException("a failure body is only written");
      }
    };
  }
}
