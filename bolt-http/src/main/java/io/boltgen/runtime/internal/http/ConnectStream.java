package io.boltgen.runtime.internal.http;

import io.boltgen.runtime.Connection;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.call.ServerStream;
import io.boltgen.runtime.internal.PortConnection;
import io.netty.buffer.ByteBuf;
import java.util.Map;

/**
 * What a Connect call's transport side is, unary ({@link ConnectRpcStream}) or streaming
 * ({@link ConnectStreamingStream}): its request (one message, JSON or protobuf, decoded on the call's thread; or a
 * {@link StreamedRequest} body, whose messages are told as the call asks), its headers, its place among the
 * connection's exchanges, and its cancellation when the HTTP stream or connection closes first. How the answer is
 * written is each kind's own.
 *
 * <p>Threads: made on the IO thread; decoded on the call's thread; cancelled on the IO thread.
 */
abstract class ConnectStream implements ServerStream, ServerStream.Message, HttpCall.Served {

  final HttpExchanges exchanges;
  final HttpExchanges.Exchange exchange;
  final MethodDescriptor<?, ?> method;
  final boolean json;
  final long timeoutMillis;
  private final PortConnection connection;
  private final Map<String, String> headers;
  private ByteBuf message;
  // the request's streamed body, or null for a request of one message (set once, on the IO thread, before start)
  StreamedRequest body;
  Listener call;
  // whether the request was told to the call (IO thread)
  private boolean told;
  private volatile boolean cancelled;

  /**
   * A call of {@code method} on {@code exchange}, whose one request message is {@code message} (taken), or null if
   * its body streams.
   */
  ConnectStream(HttpExchanges exchanges, HttpExchanges.Exchange exchange, MethodDescriptor<?, ?> method,
      Map<String, String> headers, boolean json, long timeoutMillis, ByteBuf message) {
    this.exchanges = exchanges;
    this.exchange = exchange;
    this.connection = exchanges.connection();
    this.method = method;
    this.headers = headers;
    this.json = json;
    this.timeoutMillis = timeoutMillis;
    this.message = message;
  }

  /** The one server call this stream carries (IO thread, before anything is told to it). */
  @Override
  public final void start(Listener call) {
    this.call = call;
    if (body != null) {
      body.start(call);
    }
  }

  /**
   * The client reset the stream or closed the connection before the answer (IO thread): the call is cancelled,
   * unless it was answered first.
   */
  @Override
  public final void cancel() {
    cancelled = true;
    call.onCancel();
  }

  // ------------------------------------------------------------------ the request: the call's one message

  @Override
  public final boolean decodeOnArrival() {
    return false; // JSON costs more than a Bolt request's bytes: decoded on the call's thread
  }

  @Override
  public final Object decode() {
    ByteBuf b = message;
    message = null;
    return MessageForms.decodeRequest(method, json, b);
  }

  @Override
  public final void release() {
    ByteBuf b = message;
    message = null;
    if (b != null) {
      b.release();
    }
  }

  // ------------------------------------------------------------------ ServerStream

  @Override
  public final Connection connection() {
    return connection;
  }

  @Override
  public final String remoteText() {
    return connection.remoteText();
  }

  @Override
  public final int streamId() {
    return exchange.requestId;
  }

  @Override
  public final Map<String, String> headers() {
    return headers;
  }

  @Override
  public final void request(int count) {
    if (body != null) {
      body.request(count);
      return;
    }
    // a request of one message, and the end of the caller's side: told once, when first asked for
    if (count > 0 && !told) {
      told = true;
      call.onMessage(this);
      call.onHalfClose();
    }
  }

  @Override
  public final boolean carriesRequestStreams() {
    return body != null;
  }

  @Override
  public final void flush() {
    // every answer is written and flushed by HttpExchanges in request order
  }

  @Override
  public final boolean isOpen() {
    return !cancelled && connection.isActive();
  }
}
