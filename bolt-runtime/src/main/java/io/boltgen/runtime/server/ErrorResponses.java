package io.boltgen.runtime.server;

import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.protocol.Bolt;
import io.boltgen.runtime.protocol.ErrorHeaders;
import io.boltgen.runtime.protocol.FrameEncoder;
import io.boltgen.runtime.protocol.HessianErrors;
import io.boltgen.runtime.transport.BoltConnection;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Error responses, built as SOFABolt builds its own: codec 1 (Hessian2), switch 0 (so no CRC), the
 * connection's latched protocol. Each carries the failure twice: as a Hessian
 * {@code RpcServerException} in the body, which a SOFABolt client deserializes into the cause of its
 * exception, and as {@link ErrorHeaders} entries in the header, which a boltgen client reads exactly.
 */
final class ErrorResponses {

  private static final byte[] RPC_SERVER_EXCEPTION = HessianErrors.RPC_SERVER_EXCEPTION.getBytes(StandardCharsets.UTF_8);
  private static final byte[] NO_CLASS = new byte[0];
  private static final int MAX_HEADER_MESSAGE = 4096;

  private ErrorResponses() {}

  /**
   * An error response with {@code status}, naming the exception class (may be {@code null}) and message
   * (may be {@code null}); {@code context} says where it happened, as SOFABolt's AdditionalErrorMsg does.
   */
  static ByteBuf error(BoltConnection connection, int requestId, ResponseStatus status, String errorClass,
      String errorMessage, String context) {
    Map<String, String> header = new LinkedHashMap<>();
    if (errorClass != null) {
      header.put(ErrorHeaders.ERROR_CLASS, errorClass);
    }
    if (errorMessage != null) {
      header.put(ErrorHeaders.ERROR_MESSAGE, errorMessage.length() <= MAX_HEADER_MESSAGE
          ? errorMessage : errorMessage.substring(0, MAX_HEADER_MESSAGE));
    }
    String origin = errorClass == null ? String.valueOf(errorMessage)
        : errorMessage == null ? errorClass : errorClass + ": " + errorMessage;
    String detail = "[Server]OriginErrorMsg: " + origin + ". AdditionalErrorMsg: " + context;
    return FrameEncoder.response(connection.alloc(), connection.protocolCode(), connection.version(), (byte) 0,
        requestId, Bolt.CODEC_HESSIAN2, status, RPC_SERVER_EXCEPTION, header, HessianErrors.SERVER_EXCEPTION, detail);
  }

  /** The answer of a full executor: status 0x04 with an empty body (SOFABolt's), our header saying why. */
  static ByteBuf busy(BoltConnection connection, int requestId, String message) {
    return FrameEncoder.response(connection.alloc(), connection.protocolCode(), connection.version(), (byte) 0,
        requestId, Bolt.CODEC_HESSIAN2, ResponseStatus.SERVER_THREADPOOL_BUSY, NO_CLASS,
        Map.of(ErrorHeaders.ERROR_MESSAGE, message), null, null);
  }
}
