package io.boltgen.runtime.internal.wire;

import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.codec.Marshaller;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.util.concurrent.FastThreadLocalThread;
import java.util.Map;

/**
 * Writes Bolt frames: this is where frames become bytes. Each frame goes into one buffer sized exactly
 * (fixed header + className + header entries + content + CRC); the content is written straight into it by
 * its {@link Marshaller}, with no intermediate array. On any failure the buffer is released and the
 * exception propagates.
 *
 * <p>Stateless: every method encodes into a buffer of its own.
 */
public final class FrameEncoder {

  private static final byte[] NO_BYTES = new byte[0];

  /**
   * The largest request frame a thread that is not an IO thread encodes on the heap (see {@link #request}):
   * below it, a plain array and the copy the channel makes into its own direct buffer cost less than a
   * pooled direct buffer taken without a thread cache; above it, the copy would cost more.
   */
  static final int HEAP_FRAME_LIMIT = 16 * 1024;

  // plain arrays, not tracked for leaks: the garbage collector frees them
  private static final ByteBufAllocator HEAP = new UnpooledByteBufAllocator(false, true);

  private FrameEncoder() {}

  /**
   * A request ({@link Bolt#TYPE_REQUEST}) or oneway ({@link Bolt#TYPE_ONEWAY}) frame. On a thread that is
   * not a Netty thread (a caller's own thread) a frame of up to {@value #HEAP_FRAME_LIMIT} bytes is encoded
   * into a heap array: Netty gives such threads no buffer cache (each pooled buffer would be taken from its
   * arena under a lock and recycled through a slow path), and the IO thread copies the small frame into a
   * direct buffer from its own cache when it writes it. Larger frames, and frames encoded on Netty threads,
   * go into a pooled direct buffer from {@code alloc}.
   *
   * @param timeoutMillis the caller's timeout; use {@link Bolt#NO_TIMEOUT} for oneway
   * @param maxFrameLength the largest frame the peer accepts
   * @throws FrameTooLargeException if the frame would be larger than {@code maxFrameLength} (checked before
   *     anything is allocated)
   */
  public static <T> ByteBuf request(
      ByteBufAllocator alloc,
      FrameFormat format,
      byte type,
      int requestId,
      int timeoutMillis,
      byte[] className,
      Map<String, String> headers,
      Marshaller<T> marshaller,
      T value,
      int maxFrameLength) {
    boolean heapIfSmall = !(Thread.currentThread() instanceof FastThreadLocalThread);
    return encode(alloc, heapIfSmall, format, true, type, Bolt.CMD_REQUEST, requestId,
        marshaller.codecId(), timeoutMillis, className, headers, marshaller, value, maxFrameLength);
  }

  /**
   * A response frame with {@code status}; its content, if any, written by {@code marshaller}.
   *
   * @param maxFrameLength the largest frame the peer accepts
   * @throws FrameTooLargeException if the frame would be larger than {@code maxFrameLength} (checked before
   *     anything is allocated)
   */
  public static <T> ByteBuf response(
      ByteBufAllocator alloc,
      FrameFormat format,
      int requestId,
      byte codec,
      ResponseStatus status,
      byte[] className,
      Map<String, String> headers,
      Marshaller<T> marshaller,
      T value,
      int maxFrameLength) {
    return encode(alloc, false, format, false, Bolt.TYPE_RESPONSE, Bolt.CMD_RESPONSE,
        requestId, codec, status.code(), className, headers, marshaller, value, maxFrameLength);
  }

  /** A heartbeat: command 0, timeout -1, switch 0 (so never a CRC), no body; codec 1 as SOFABolt sends. */
  public static ByteBuf heartbeat(ByteBufAllocator alloc, FrameFormat format, int requestId) {
    return encode(alloc, false, format.withSwitchFlags((byte) 0), true, Bolt.TYPE_REQUEST, Bolt.CMD_HEARTBEAT, requestId,
        Bolt.CODEC_HESSIAN2, Bolt.NO_TIMEOUT, NO_BYTES, Map.of(), null, null, Integer.MAX_VALUE);
  }

  /** The ack of heartbeat {@code requestId}: a response with command 0, status SUCCESS, switch 0. */
  public static ByteBuf heartbeatAck(ByteBufAllocator alloc, FrameFormat format, int requestId) {
    return encode(alloc, false, format.withSwitchFlags((byte) 0), false, Bolt.TYPE_RESPONSE, Bolt.CMD_HEARTBEAT,
        requestId, Bolt.CODEC_HESSIAN2, ResponseStatus.SUCCESS.code(), NO_BYTES, Map.of(), null, null,
        Integer.MAX_VALUE);
  }

  static <T> ByteBuf encode(
      ByteBufAllocator alloc,
      boolean heapIfSmall,
      FrameFormat format,
      boolean request,
      byte type,
      short cmdCode,
      int requestId,
      byte codec,
      int timeoutOrStatus,
      byte[] className,
      Map<String, String> headers,
      Marshaller<T> marshaller,
      T value,
      int maxFrameLength) {
    if (className.length > Bolt.MAX_SHORT_LENGTH) {
      throw new IllegalArgumentException("className of " + className.length + " bytes exceeds the Bolt limit of 32767");
    }
    int headersLength = HeadersCodec.encodedSize(headers);
    int contentLength = marshaller == null ? 0 : marshaller.encodedSize(value);
    if (contentLength < 0) {
      throw new IllegalStateException(marshaller + " announced a negative size: " + contentLength);
    }
    boolean crc = format.hasCrc();
    long total = (long) Bolt.fixedHeaderLength(format.protocolCode(), request) + className.length + headersLength
        + contentLength + (crc ? Bolt.CRC_LENGTH : 0);
    if (total > maxFrameLength) {
      throw new FrameTooLargeException(total, maxFrameLength);
    }
    ByteBuf out = heapIfSmall && total <= HEAP_FRAME_LIMIT ? HEAP.heapBuffer((int) total, (int) total)
        : alloc.ioBuffer((int) total, (int) total);
    try {
      writeHeader(out, format, request, type, cmdCode, Bolt.COMMAND_VERSION,
          requestId, codec, timeoutOrStatus, className.length, headersLength, contentLength);
      out.writeBytes(className);
      if (headersLength > 0) {
        HeadersCodec.write(headers, out);
      }
      if (contentLength > 0) {
        int contentStart = out.writerIndex();
        marshaller.write(value, out);
        int written = out.writerIndex() - contentStart;
        if (written != contentLength) {
          throw new IllegalStateException(
              marshaller + " announced " + contentLength + " bytes but wrote " + written);
        }
      }
      if (crc) {
        out.writeInt(Crc32.of(out, 0, out.writerIndex()));
      }
      return out;
    } catch (RuntimeException | Error e) {
      out.release();
      throw e;
    }
  }

  private static void writeHeader(
      ByteBuf out,
      FrameFormat format,
      boolean request,
      byte type,
      short cmdCode,
      byte commandVersion,
      int requestId,
      byte codec,
      int timeoutOrStatus,
      int classLength,
      int headersLength,
      int contentLength) {
    boolean v2 = format.protocolCode() == Bolt.PROTOCOL_V2;
    if (v2) { // the usual header, in a few wide writes (each write checks the buffer once)
      // protocol, version, type, command code, command version, the request id's first two bytes
      out.writeLong((format.protocolCode() & 0xFFL) << 56 | (format.version() & 0xFFL) << 48 | (type & 0xFFL) << 40
          | (cmdCode & 0xFFFFL) << 24 | (commandVersion & 0xFFL) << 16 | (requestId >>> 16));
      // the request id's last two bytes, codec, switch flags, then a request's timeout or an answer's status
      long next = (requestId & 0xFFFFL) << 48 | (codec & 0xFFL) << 40 | (format.switchFlags() & 0xFFL) << 32;
      if (request) {
        out.writeLong(next | (timeoutOrStatus & 0xFFFFFFFFL));
        out.writeLong((classLength & 0xFFFFL) << 48 | (headersLength & 0xFFFFL) << 32 | (contentLength & 0xFFFFFFFFL));
      } else {
        out.writeLong(next | (timeoutOrStatus & 0xFFFFL) << 16 | (classLength & 0xFFFFL));
        out.writeShort(headersLength);
        out.writeInt(contentLength);
      }
      return;
    }
    out.writeByte(format.protocolCode());
    out.writeByte(type);
    out.writeShort(cmdCode);
    out.writeByte(commandVersion);
    out.writeInt(requestId);
    out.writeByte(codec);
    if (request) {
      out.writeInt(timeoutOrStatus);
    } else {
      out.writeShort(timeoutOrStatus);
    }
    out.writeShort(classLength);
    out.writeShort(headersLength);
    out.writeInt(contentLength);
  }
}
