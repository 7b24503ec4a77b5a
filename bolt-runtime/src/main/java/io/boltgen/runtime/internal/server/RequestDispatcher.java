package io.boltgen.runtime.internal.server;

import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.call.ServerCalls;
import io.boltgen.runtime.call.ServerStream;
import io.boltgen.runtime.codec.FailureMarshaller;
import io.boltgen.runtime.internal.Answers;
import io.boltgen.runtime.internal.BoltConnection;
import io.boltgen.runtime.internal.RequestHandler;
import io.boltgen.runtime.internal.wire.BoltFrame;
import io.boltgen.runtime.internal.wire.ErrorFrames;
import io.boltgen.runtime.internal.wire.FrameEncoder;
import io.boltgen.runtime.internal.wire.HeadersCodec;
import io.boltgen.runtime.internal.wire.StreamFrames;
import io.boltgen.runtime.support.MessageText;
import io.boltgen.runtime.support.RateLimitedLog;
import io.netty.buffer.ByteBuf;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a read's Bolt requests become calls, on the IO thread: each request finds its method by its className
 * (and, for methods that share one className, by its routing headers), becomes a {@link BoltServerStream} and
 * the one server call over it ({@link ServerCalls#newCall}), and the connection's {@link ServerCalls.Dispatch}
 * starts the read's calls together. An unknown className is answered {@code NO_PROCESSOR} (a shared className
 * whose routing headers name no method, {@code SERVER_DESERIAL_EXCEPTION}, as the dialects that share one
 * answer it) at once.
 */
public final class RequestDispatcher implements RequestHandler {

  private static final Logger log = LoggerFactory.getLogger(RequestDispatcher.class);
  private static final RateLimitedLog unknownClassNames = RateLimitedLog.of(log);
  private static final RateLimitedLog dispatchFailures = RateLimitedLog.of(log);

  private final MethodTable methods;
  private final ServerCalls calls;

  /** A dispatcher of the calls of {@code calls}. */
  public RequestDispatcher(ServerCalls calls) {
    this.calls = calls;
    this.methods = MethodTable.builder().addAll(calls).build();
  }

  @Override
  public void onRequests(BoltConnection connection, List<BoltFrame> frames) {
    ServerCalls.Dispatch dispatch = connection.dispatch(calls);
    int n = frames.size();
    connection.requestsOpened(n); // every frame counts until it is answered, refused or dropped
    int i = 0;
    try {
      for (; i < n; i++) {
        BoltFrame frame = frames.get(i);
        Map<String, String> headers = null;
        MethodEntry entry;
        MethodTable.Routed routed = methods.routed(frame);
        if (routed != null) {
          headers = headersOf(frame); // the method is named in the header: read it once, for the call too
          entry = headers == null ? null : routed.lookup(headers);
          if (entry == null) {
            refuseUnrouted(connection, frame, routed, headers);
            continue;
          }
        } else {
          entry = methods.lookup(frame);
          if (entry == null) {
            if (StreamFrames.isControl(frame)) {
              connection.requestClosed(); // credit or cancellation for a streamed answer: answered nothing
              connection.streams().control(frame);
            } else {
              refuseUnknown(connection, frame);
            }
            continue;
          }
        }
        BoltServerStream stream = new BoltServerStream(connection, frame, entry, headers);
        if (!stream.open()) {
          continue; // a stream over the connection's limit, answered busy
        }
        ServerStream.Listener call = calls.newCall(entry.handle(), stream, frame.arrivalNanos(), frame.timeout(),
            frame.isOneway(), stream.carriesStreams()); // a stream ends at its deadline; a unary call is dropped
        dispatch.start(call);
      }
      dispatch.submit();
    } catch (Throwable e) {
      // a bug: leak no frame, and leave no peer waiting for answers that will not come
      for (int j = i + 1; j < n; j++) {
        frames.get(j).release();
      }
      dispatch.refuse();
      dispatchFailures.warn("closing connection from {}: dispatching its requests failed unexpectedly",
          connection.remoteAddress(), e);
      connection.close();
    }
  }

  /** The headers of a request, or {@code null} when they are malformed (the request names no method). */
  private static Map<String, String> headersOf(BoltFrame frame) {
    try {
      return frame.headersLength() == 0 ? Map.of() : HeadersCodec.read(frame.headers());
    } catch (RuntimeException e) {
      return null;
    }
  }

  private static void refuseUnknown(BoltConnection connection, BoltFrame frame) {
    String className = frame.classLength() <= MessageText.MAX_CHARS ? frame.classNameString()
        : frame.classNamePreview(MessageText.MAX_CHARS) + "…(" + frame.classLength() + " bytes in all)";
    refuse(connection, frame, ResponseStatus.NO_PROCESSOR, className);
  }

  /**
   * A request of a className several methods share, whose routing headers name none of them: refused while
   * its request is read ({@code SERVER_DESERIAL_EXCEPTION}), as the dialect's own servers do, since a SOFABolt
   * client only shows the server's message for that status.
   */
  private static void refuseUnrouted(BoltConnection connection, BoltFrame frame, MethodTable.Routed routed,
      Map<String, String> headers) {
    MethodTable.Routed.UnknownService unknown = headers == null ? null : routed.unknownService(headers, frame.codec());
    if (unknown != null) {
      answerUnknownService(connection, frame, unknown, routed.describe(headers));
      return;
    }
    String asked = headers == null ? frame.classNameString() + " (with a malformed header)" : routed.describe(headers);
    refuse(connection, frame, ResponseStatus.SERVER_DESERIAL_EXCEPTION, asked);
  }

  /**
   * A request for a service this server does not serve, answered as the protocol's own servers do: a successful
   * frame carrying the failure its marshaller chose ({@link FailureMarshaller#unknownService}).
   */
  private static void answerUnknownService(BoltConnection connection, BoltFrame frame,
      MethodTable.Routed.UnknownService unknown, String asked) {
    int requestId = frame.requestId();
    boolean oneway = frame.isOneway();
    byte switchFlags = frame.switchFlags();
    frame.release();
    connection.requestClosed();
    unknownClassNames.warn("no service for '{}' (request id {} from {})", asked, requestId, connection.remoteAddress());
    if (oneway) {
      return;
    }
    FailureMarshaller<?> answers = unknown.answers();
    ByteBuf answer;
    try {
      answer = FrameEncoder.response(connection.alloc(), connection.format().withSwitchFlags(switchFlags), requestId,
          answers.codecId(), ResponseStatus.SUCCESS, unknown.entry().responseClassName(),
          answers.failureHeaders(unknown.failure()), Answers.failureBody(answers), unknown.failure(),
          connection.peerMaxFrameLength());
    } catch (RuntimeException e) {
      answer = ErrorFrames.error(connection.alloc(), connection.format(), requestId,
          ResponseStatus.SERVER_DESERIAL_EXCEPTION, null, "no service is registered for '" + asked + "'", "dispatch");
    }
    connection.writeFrame(answer);
  }

  private static void refuse(BoltConnection connection, BoltFrame frame, ResponseStatus status, String asked) {
    int requestId = frame.requestId();
    boolean oneway = frame.isOneway();
    frame.release();
    connection.requestClosed();
    unknownClassNames.warn("no service for '{}' (request id {} from {})", asked, requestId, connection.remoteAddress());
    if (!oneway) {
      connection.writeFrame(ErrorFrames.error(connection.alloc(), connection.format(), requestId, status, null,
          "no service is registered for '" + asked + "'", "dispatch"));
    }
  }
}
