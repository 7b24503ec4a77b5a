package io.boltgen.runtime.internal.wire;

import io.boltgen.runtime.ResponseStatus;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Error answers, built as SOFABolt builds its own: codec 1 (Hessian2), switch 0 (so no CRC), in the
 * connection's frame format. Each carries the failure twice: as a Hessian {@code RpcServerException} in the
 * body, which a SOFABolt client deserializes into the cause of its exception, and as {@link ErrorFormat}
 * header entries, which a boltgen client reads exactly. Messages are cut to
 * {@value #MAX_HEADER_MESSAGE} characters.
 *
 * <p>Stateless.
 */
public final class ErrorFrames {

  private static final byte[] RPC_SERVER_EXCEPTION = HessianErrors.RPC_SERVER_EXCEPTION.getBytes(StandardCharsets.UTF_8);
  private static final byte[] NO_CLASS = new byte[0];
  static final int MAX_HEADER_MESSAGE = 4096;

  private ErrorFrames() {}

  /**
   * An error answer to {@code requestId} with {@code status}, naming the exception class (may be
   * {@code null}) and message (may be {@code null}); {@code context} says where it happened, as SOFABolt's
   * AdditionalErrorMsg does.
   */
  public static ByteBuf error(ByteBufAllocator alloc, FrameFormat format, int requestId,
      ResponseStatus status, String errorClass, String errorMessage, String context) {
    String message = errorMessage == null || errorMessage.length() <= MAX_HEADER_MESSAGE
        ? errorMessage : errorMessage.substring(0, MAX_HEADER_MESSAGE);
    Map<String, String> headers = new LinkedHashMap<>();
    if (errorClass != null) {
      headers.put(ErrorFormat.ERROR_CLASS, errorClass);
    }
    if (message != null) {
      headers.put(ErrorFormat.ERROR_MESSAGE, message);
    }
    String detail = ErrorFormat.detail(errorClass, message, context);
    return FrameEncoder.response(alloc, format.withSwitchFlags((byte) 0), requestId, Bolt.CODEC_HESSIAN2, status,
        RPC_SERVER_EXCEPTION, headers, HessianErrors.SERVER_EXCEPTION, detail, Integer.MAX_VALUE);
  }

  /**
   * The answer of a server that cannot take a request now (a full executor, or no room for another
   * connection): status 0x04 with an empty body (SOFABolt's), a header entry saying why.
   */
  public static ByteBuf busy(ByteBufAllocator alloc, FrameFormat format, int requestId, String message) {
    return FrameEncoder.response(alloc, format.withSwitchFlags((byte) 0), requestId, Bolt.CODEC_HESSIAN2,
        ResponseStatus.SERVER_THREADPOOL_BUSY, NO_CLASS, Map.of(ErrorFormat.ERROR_MESSAGE, message), null, null,
        Integer.MAX_VALUE);
  }
}
