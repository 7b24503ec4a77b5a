package io.boltgen.runtime.call;

import io.boltgen.runtime.Connection;
import java.util.Map;

/**
 * A transport's side of one served call: what a protocol implements to carry calls (a Bolt request, an
 * HTTP/1.1 exchange, an HTTP/2 stream). It reads the caller's messages and hands them to the call's
 * {@link Listener} as the call asks for them ({@link #request}), and writes the call's messages and its final
 * status in its protocol's own terms. Everything else (the executor, the context, interceptors, the deadline,
 * cancellation, metrics, what a result or a failure becomes) is the one server call's, which every
 * transport shares ({@link ServerCalls#newCall}).
 *
 * <p>Messages travel on demand: the transport tells the call nothing before {@link #start}, then at most as many
 * messages as the call asked for ({@link #request}), and half-closes after the caller's last one. A unary call is
 * one message each way: it asks for two (so that a caller that sends a second is refused, not ignored), the
 * transport delivers its request and half-closes, and the call writes at most one message, then closes; a
 * server-streaming call takes one message the same way and writes any number ({@link #carriesStreams}); a
 * client-streaming or bidirectional one asks for the caller's messages as its handler reads them
 * ({@link #carriesRequestStreams}). A
 * transport that carries one message each way holds the message written until {@link #close}, which writes the
 * answer.
 *
 * <p>Threads: the transport calls the listener on its IO thread; the call calls this stream from any thread
 * (a handler answers from where it likes), each method of it at most once at a time. {@link #close} is called
 * exactly once, and nothing else is called after it but {@link #flush}.
 */
public interface ServerStream {

  /** The connection the call arrived on. */
  Connection connection();

  /** The caller's address as text, made once per connection: for log lines and the handler's logging context. */
  String remoteText();

  /** The call's id on the wire (Bolt's request id, an HTTP/2 stream's id, an HTTP/1.1 request's number). */
  int streamId();

  /** The request's headers (lower-case names over HTTP), read-only; empty when it had none. */
  Map<String, String> headers();

  /**
   * The call listens from now on (once, on the IO thread, before anything else of it is called): the transport
   * tells {@code listener} what happens to the stream, and the caller's messages once asked for.
   */
  void start(Listener listener);

  /**
   * Asks for up to {@code count} more of the caller's messages, each told to {@link Listener#onMessage}, now or as
   * they arrive; once the caller sent its last and every message it sent was told, the transport tells
   * {@link Listener#onHalfClose}. A transport never tells more messages than were asked for.
   */
  void request(int count);

  /** Whether a message written now leaves without waiting for the caller to read (flow control). */
  boolean isReady();

  /**
   * Writes one message. A transport may encode it here, and throws if it cannot be encoded (the call then
   * closes {@link CallStatus.Kind#REFUSED} with {@code SERVER_SERIAL_EXCEPTION}); or it keeps it to encode later,
   * on its own thread, and answers a failure to encode there itself.
   */
  void writeMessage(Object message);

  /**
   * Ends the call with {@code status}: writes the answer, or the failure in the protocol's terms, or nothing
   * (a cancelled call, a oneway one, a Bolt call past its deadline, whose caller no longer waits). With
   * {@code flush} false the transport may keep the bytes until the next {@link #flush} of a stream of the same
   * connection (the answers of one shared task leave in one write).
   */
  void close(CallStatus status, boolean flush);

  /** Writes whatever a {@code close(…, false)} of this connection kept back. */
  void flush();

  /** Whether the caller can still be answered (its connection is open, its stream not reset). */
  boolean isOpen();

  /**
   * Whether this transport carries a streamed answer ({@link io.boltgen.runtime.MethodType#streamsAnswers()}):
   * several {@link #writeMessage} calls before {@link #close}, each written as it comes, with {@link #isReady}
   * saying when the caller is behind. Such a transport also takes a {@code close} from another thread while a
   * message is being written (the deadline's timer, the caller's cancellation) and drops what is written after
   * it. A call of a streaming method over a transport that does not is refused
   * {@link io.boltgen.runtime.ResponseStatus#NO_PROCESSOR}.
   */
  default boolean carriesStreams() {
    return false;
  }

  /**
   * Whether this transport carries the caller's stream of messages ({@link
   * io.boltgen.runtime.MethodType#streamsRequests()}): it starts such a call as soon as its request's head arrived,
   * before any message, tells each message as the call asks for it ({@link #request}, called from the call's
   * executor, not only the IO thread), holds the rest back by its protocol's flow control, and half-closes after
   * the caller's last. A call of such a method over a transport that does not is refused
   * {@link io.boltgen.runtime.ResponseStatus#NO_PROCESSOR}.
   */
  default boolean carriesRequestStreams() {
    return false;
  }

  /**
   * The call's handler now listens for cancellation: from here on the transport tells {@link Listener#onCancel}
   * as soon as it notices the caller went away, until the call closes. A transport that always tells ignores it.
   */
  default void watchCancellation() {}

  /**
   * The handler returned without closing the call: it answers later, from elsewhere. A transport that bounds
   * the calls it has read and not yet answered may stop counting this one (its caller's next requests are not
   * held back by an asynchronous handler).
   */
  default void handlerReturned() {}

  /** The call's side of a stream: what the transport tells it, on its IO thread. Implemented by the one server call. */
  interface Listener {

    /** One message the call asked for. */
    void onMessage(Message message);

    /** The caller sends no more messages. */
    void onHalfClose();

    /** The caller went away (a reset stream, a closed connection) before the call closed. */
    void onCancel();

    /** {@link #isReady()} turned true. */
    void onReady();
  }

  /**
   * One of the caller's messages as the transport read it, decoded by the call on the thread that serves it,
   * or at once on the IO thread when {@link #decodeOnArrival()} says it is cheap.
   */
  interface Message {

    /** Whether decoding costs little enough to be done on the IO thread that read it. */
    boolean decodeOnArrival();

    /**
     * Decodes the message and releases its bytes.
     *
     * @throws io.boltgen.runtime.BoltException the status and message the caller is refused with (usually
     *     {@code SERVER_DESERIAL_EXCEPTION}); its cause, if any, is the codec's exception
     */
    Object decode();

    /** Releases the message's bytes without decoding it (its call ended first). */
    void release();
  }
}
