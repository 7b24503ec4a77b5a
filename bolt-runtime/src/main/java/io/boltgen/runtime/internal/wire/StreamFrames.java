package io.boltgen.runtime.internal.wire;

import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.codec.Marshaller;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * boltgen's extension of Bolt for streams: the header entry that marks a stream's frames, and the control frames a
 * caller sends its server. Every frame is a plain Bolt frame, so that SOFABolt's decoder reads each one; only a
 * boltgen caller asks for a stream, and only a boltgen server answers one.
 *
 * <ul>
 *   <li>The request: an ordinary request frame whose header carries {@value #HEADER} with the number of messages
 *       the caller takes before it grants more (its <em>credit</em>, 1 to {@value #MAX_CREDIT}).
 *   <li>Each message: a {@code SUCCESS} response of the request's id, {@value #HEADER}{@code =}{@value #MESSAGE}.
 *   <li>The end: a {@code SUCCESS} response with {@value #HEADER}{@code =}{@value #END} and no content, or the
 *       error response a unary call fails with.
 *   <li>Control: a oneway request of the stream's id, className {@value #CONTROL_CLASS}, no content, whose header
 *       says {@value #HEADER}{@code =}{@value #CREDIT} with {@value #COUNT} more messages, or
 *       {@value #HEADER}{@code =}{@value #CANCEL}.
 *   <li>A stream of requests (a client-streaming or bidirectional method): the request carries no message; each of
 *       the caller's messages is a oneway request of the stream's id, className {@value #CONTROL_CLASS}, in the
 *       method's codec, {@value #HEADER}{@code =}{@value #MESSAGE}, sent only against the credit the server grants
 *       in {@code SUCCESS} responses of the stream's id marked {@value #HEADER}{@code =}{@value #CREDIT} with
 *       {@value #COUNT}; the caller's last is a control frame {@value #HEADER}{@code =}{@value #END}. The answer is
 *       a stream's, one message for a client-streaming method.
 * </ul>
 *
 * <p>Stateless.
 */
public final class StreamFrames {

  /** The header entry that marks a stream's request (its initial credit) and answers (what each is). */
  public static final String HEADER = "boltgen-stream";
  /** {@link #HEADER}'s value on a message of a stream. */
  public static final String MESSAGE = "message";
  /** {@link #HEADER}'s value on the successful end of a stream. */
  public static final String END = "end";
  /** {@link #HEADER}'s value on a control frame granting more credit. */
  public static final String CREDIT = "credit";
  /** {@link #HEADER}'s value on a control frame cancelling the stream. */
  public static final String CANCEL = "cancel";
  /** The header entry of a {@link #CREDIT} frame: how many more messages the caller takes. */
  public static final String COUNT = "boltgen-credit";
  /** The className of a control frame. */
  public static final String CONTROL_CLASS = "boltgen.stream";
  /** The most credit a caller may grant, in all, at any time. */
  public static final int MAX_CREDIT = 1024;

  /** The header of a stream's message. */
  public static final Map<String, String> MESSAGE_HEADERS = Map.of(HEADER, MESSAGE);

  private static final byte[] CONTROL_CLASS_BYTES = CONTROL_CLASS.getBytes(StandardCharsets.US_ASCII);

  private StreamFrames() {}

  /** The credit a request's {@code headers} ask a stream with, or 0 when they ask for none (or malformed). */
  public static int initialCredit(Map<String, String> headers) {
    return count(headers.get(HEADER));
  }

  /** The credit a control frame's {@code headers} grant, or 0 when they grant none (or malformed). */
  public static int grantedCredit(Map<String, String> headers) {
    return CREDIT.equals(headers.get(HEADER)) ? count(headers.get(COUNT)) : 0;
  }

  private static int count(String text) {
    if (text == null || text.isEmpty() || text.length() > 4) {
      return 0;
    }
    int n = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return 0;
      }
      n = n * 10 + (c - '0');
    }
    return n <= MAX_CREDIT ? n : 0;
  }

  /** Whether {@code frame} is a control frame of a stream (a request). */
  public static boolean isControl(BoltFrame frame) {
    return frame.isOneway() && frame.classLength() == CONTROL_CLASS_BYTES.length
        && CONTROL_CLASS.equals(frame.classNameString());
  }

  /** The successful end of the stream {@code requestId}: no content, in the codec and className of its messages. */
  public static ByteBuf end(ByteBufAllocator alloc, FrameFormat format, int requestId, byte codec, byte[] className) {
    return FrameEncoder.response(alloc, format, requestId, codec, ResponseStatus.SUCCESS, className, Map.of(HEADER, END),
        null, null, Integer.MAX_VALUE);
  }

  /** A control frame granting the stream {@code requestId} {@code count} more messages. */
  public static ByteBuf credit(ByteBufAllocator alloc, FrameFormat format, int requestId, int count) {
    return control(alloc, format, requestId, Map.of(HEADER, CREDIT, COUNT, Integer.toString(count)));
  }

  /**
   * The request opening a stream of requests: the method's {@code className}, {@code headers} and {@code codec},
   * its timeout, and no message.
   */
  public static ByteBuf opening(ByteBufAllocator alloc, FrameFormat format, int requestId, int timeoutMillis,
      byte[] className, Map<String, String> headers, byte codec, int maxFrameLength) {
    return FrameEncoder.encode(alloc, false, format, true, Bolt.TYPE_REQUEST, Bolt.CMD_REQUEST, requestId, codec,
        timeoutMillis, className, headers, null, null, maxFrameLength);
  }

  /**
   * One of the caller's messages of the stream {@code requestId}, written by {@code marshaller}.
   *
   * @throws FrameTooLargeException if it is larger than the peer accepts
   */
  public static <T> ByteBuf requestMessage(ByteBufAllocator alloc, FrameFormat format, int requestId,
      Marshaller<T> marshaller, T message, int maxFrameLength) {
    return FrameEncoder.encode(alloc, false, format.withSwitchFlags((byte) 0), true, Bolt.TYPE_ONEWAY, Bolt.CMD_REQUEST,
        requestId, marshaller.codecId(), Bolt.NO_TIMEOUT, CONTROL_CLASS_BYTES, MESSAGE_HEADERS, marshaller, message,
        maxFrameLength);
  }

  /** The caller sends no more messages on the stream {@code requestId}. */
  public static ByteBuf requestsEnd(ByteBufAllocator alloc, FrameFormat format, int requestId) {
    return control(alloc, format, requestId, Map.of(HEADER, END));
  }

  /** The server takes {@code count} more of the caller's messages on the stream {@code requestId}. */
  public static ByteBuf requestCredit(ByteBufAllocator alloc, FrameFormat format, int requestId, byte codec,
      byte[] className, int count) {
    return FrameEncoder.response(alloc, format, requestId, codec, ResponseStatus.SUCCESS, className,
        Map.of(HEADER, CREDIT, COUNT, Integer.toString(count)), null, null, Integer.MAX_VALUE);
  }

  /** A control frame cancelling the stream {@code requestId}. */
  public static ByteBuf cancel(ByteBufAllocator alloc, FrameFormat format, int requestId) {
    return control(alloc, format, requestId, Map.of(HEADER, CANCEL));
  }

  private static ByteBuf control(ByteBufAllocator alloc, FrameFormat format, int requestId, Map<String, String> headers) {
    return FrameEncoder.encode(alloc, false, format.withSwitchFlags((byte) 0), true, Bolt.TYPE_ONEWAY, Bolt.CMD_REQUEST,
        requestId, Bolt.CODEC_HESSIAN2, Bolt.NO_TIMEOUT, CONTROL_CLASS_BYTES, headers, null, null, Integer.MAX_VALUE);
  }
}
