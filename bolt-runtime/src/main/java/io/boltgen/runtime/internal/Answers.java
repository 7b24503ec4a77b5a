package io.boltgen.runtime.internal;

import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.codec.FailureMarshaller;
import io.boltgen.runtime.codec.Marshaller;
import io.boltgen.runtime.internal.wire.BoltFrame;
import io.boltgen.runtime.internal.wire.HeadersCodec;
import io.boltgen.runtime.internal.wire.RemoteErrors;
import io.netty.buffer.ByteBuf;
import java.net.SocketAddress;
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
    StreamListener<R> started = call.started();
    if (started != null && frame.headersLength() > 0) {
      started.trailers(HeadersCodec.read(frame.headers()));
    }
    call.succeed(value);
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
