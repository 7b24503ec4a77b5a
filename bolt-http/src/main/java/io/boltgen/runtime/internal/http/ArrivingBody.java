package io.boltgen.runtime.internal.http;

import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.LastHttpContent;

/**
 * The body being read as it arrives on one HTTP/1.1 connection or HTTP/2 stream: that of a request whose messages
 * stream, from its head to its last part. Its parts go to the request's {@link StreamedRequest}, or are dropped: when
 * the request was refused at its head, and once its answer was whole before the body ended.
 *
 * <p>Confined to the channel's IO thread.
 */
final class ArrivingBody {

  // the request whose body arrives, and what reads it (null: its parts are dropped); both null between such bodies
  private HttpExchanges.Exchange exchange;
  private StreamedRequest request;

  /** {@code exchange}'s head arrived and its body follows: dropped until {@link #readBy} says who reads it. */
  void begin(HttpExchanges.Exchange exchange) {
    this.exchange = exchange;
    this.request = null;
  }

  /** The body's parts go to {@code request} (null: they are dropped, the request was refused). */
  void readBy(StreamedRequest request) {
    this.request = request;
  }

  /** Whether a body is arriving. */
  boolean arriving() {
    return exchange != null;
  }

  /**
   * One part of the body (not released here): whether it was its last. A part that broke HTTP's framing (a bad chunk)
   * is the last the decoder gives: its request's answer then closes the connection.
   */
  boolean part(HttpContent content) {
    if (exchange == null) {
      return false; // no body is arriving: nothing to do with it
    }
    if (!content.decoderResult().isSuccess()) {
      exchange.keepAlive = false;
    }
    if (request != null) {
      request.add(content);
    }
    if (!(content instanceof LastHttpContent)) {
      return false;
    }
    exchange = null;
    request = null;
    return true;
  }

  /**
   * {@code answered}'s answer is whole: if its body is still arriving, whether so; the rest of it is then dropped,
   * and its connection (HTTP/1.1) not kept.
   */
  boolean answeredBefore(HttpExchanges.Exchange answered) {
    if (answered != exchange) {
      return false;
    }
    stop();
    answered.keepAlive = false;
    return true;
  }

  /** The client reset the stream (HTTP/2): the call is cancelled now, and the rest of the body dropped. */
  void reset() {
    if (exchange != null && request != null) {
      stop();
      if (exchange.call != null) {
        exchange.call.cancel();
      }
    }
  }

  /** The rest of the body is dropped: its call is told no more, what it held is freed, and reading goes on. */
  void stop() {
    if (request != null) {
      request.stop();
      request = null;
    }
  }
}
