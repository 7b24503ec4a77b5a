package io.boltgen.runtime.internal.grpc;

import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.call.CallStatus;
import io.boltgen.runtime.call.StatusCode;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * gRPC's status in its trailers: {@code grpc-status} (the runtime's one table of codes, {@link StatusCode}),
 * {@code grpc-message} (percent-encoded UTF-8, as gRPC's HTTP/2 protocol spells it), and for a handler's declared
 * exception {@code grpc-status-details-bin}: a {@code google.rpc.Status} with one {@code google.rpc.ErrorInfo}
 * detail, whose reason is the exception's simple name in upper snake case, whose domain is the service's proto
 * name, and whose metadata holds {@code exception} (its class) and {@code message}.
 *
 * <p>Thread-safe: stateless.
 */
final class GrpcStatus {

  /** The type URL of the one detail a declared exception carries. */
  static final String ERROR_INFO_TYPE = "type.googleapis.com/google.rpc.ErrorInfo";

  /**
   * The most UTF-8 bytes of a message {@code grpc-message} carries, before percent-encoding (at most three times
   * as many after): the rest is cut, so that the trailers stay well within the 8 KiB of headers gRPC clients
   * accept by default.
   */
  static final int MAX_MESSAGE_BYTES = 1024;

  /** The most UTF-8 bytes of the message a declared exception's details repeat (twice: status and metadata). */
  static final int MAX_DETAIL_MESSAGE_BYTES = 512;

  private GrpcStatus() {}

  /**
   * {@code message} as {@code grpc-message} carries it: UTF-8, every byte outside printable ASCII (and {@code %})
   * as {@code %XX}; cut to {@value #MAX_MESSAGE_BYTES} bytes first.
   */
  static String encodeMessage(String message) {
    byte[] bytes = cut(message, MAX_MESSAGE_BYTES).getBytes(StandardCharsets.UTF_8);
    StringBuilder out = new StringBuilder(bytes.length + 16);
    for (byte b : bytes) {
      int c = b & 0xff;
      if (c >= 0x20 && c < 0x7f && c != '%') {
        out.append((char) c);
      } else {
        out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
            .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
      }
    }
    return out.toString();
  }

  /**
   * {@code text} whole if its UTF-8 form has at most {@code maxBytes} bytes; else its longest start (whole code
   * points) that leaves room for a closing {@code …}, and the {@code …}.
   */
  static String cut(String text, int maxBytes) {
    if (text.length() * 3 <= maxBytes || text.getBytes(StandardCharsets.UTF_8).length <= maxBytes) {
      return text;
    }
    int room = maxBytes - 3; // "…" is three bytes
    int bytes = 0;
    int end = 0;
    while (end < text.length()) {
      int cp = text.codePointAt(end);
      int size = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
      if (bytes + size > room) {
        break;
      }
      bytes += size;
      end += Character.charCount(cp);
    }
    return text.substring(0, end) + "…";
  }

  /**
   * The {@code grpc-status-details-bin} value (base64 without padding) of a declared exception {@code cause}
   * thrown by a method of the service named {@code domain}.
   */
  static String details(StatusCode code, Throwable cause, String domain) {
    String message = cause.getMessage() == null ? "" : cut(cause.getMessage(), MAX_DETAIL_MESSAGE_BYTES);
    ProtoBytes errorInfo = new ProtoBytes()
        .string(1, reason(cause.getClass().getSimpleName()))
        .string(2, domain)
        .bytes(3, new ProtoBytes().string(1, "exception").string(2, cause.getClass().getName()).toByteArray());
    if (!message.isEmpty()) {
      errorInfo.bytes(3, new ProtoBytes().string(1, "message").string(2, message).toByteArray());
    }
    byte[] any = new ProtoBytes().string(1, ERROR_INFO_TYPE).bytes(2, errorInfo.toByteArray()).toByteArray();
    byte[] status = new ProtoBytes().varint(1, code.number()).string(2, message).bytes(3, any).toByteArray();
    return Base64.getEncoder().withoutPadding().encodeToString(status);
  }

  /**
   * {@code UnknownSkuException} (or {@code UnknownSKUException}) as {@code UNKNOWN_SKU_EXCEPTION}: ErrorInfo's
   * reason is upper snake case. A word starts at a capital after a lower-case letter or digit, and at the last
   * capital of a run that a lower-case letter follows.
   */
  static String reason(String simpleName) {
    StringBuilder out = new StringBuilder(simpleName.length() + 8);
    for (int i = 0; i < simpleName.length(); i++) {
      char c = simpleName.charAt(i);
      if (i > 0 && Character.isUpperCase(c)) {
        char before = simpleName.charAt(i - 1);
        boolean nextLower = i + 1 < simpleName.length() && Character.isLowerCase(simpleName.charAt(i + 1));
        if (Character.isLowerCase(before) || Character.isDigit(before)
            || (Character.isUpperCase(before) && nextLower)) {
          out.append('_');
        }
      }
      out.append(Character.isLetterOrDigit(c) ? Character.toUpperCase(c) : '_');
    }
    return out.toString();
  }

  /** A few protobuf fields, written in order: what a status and its detail need, and no more. */
  private static final class ProtoBytes {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    ProtoBytes varint(int field, long value) {
      if (value != 0) {
        writeVarint((long) field << 3);
        writeVarint(value);
      }
      return this;
    }

    ProtoBytes string(int field, String value) {
      return value.isEmpty() ? this : bytes(field, value.getBytes(StandardCharsets.UTF_8));
    }

    ProtoBytes bytes(int field, byte[] value) {
      writeVarint(((long) field << 3) | 2);
      writeVarint(value.length);
      out.write(value, 0, value.length);
      return this;
    }

    private void writeVarint(long value) {
      long v = value;
      while ((v & ~0x7FL) != 0) {
        out.write((int) ((v & 0x7F) | 0x80));
        v >>>= 7;
      }
      out.write((int) v);
    }

    byte[] toByteArray() {
      return out.toByteArray();
    }
  }

  /** How a call's end is told in gRPC's terms: its code, its message and a declared exception's details. */
  record End(StatusCode code, String text, String details) {

    /** The end of a call of {@code method} with {@code status}, whose caller gave it {@code timeoutMillis}. */
    static End of(CallStatus status, MethodDescriptor<?, ?> method, long timeoutMillis) {
      StatusCode code = StatusCode.of(status);
      if (status.isOk()) {
        return new End(code, null, null);
      }
      String text = status.kind() == CallStatus.Kind.DEADLINE_EXCEEDED
          ? method.httpPath() + (method.type().streamsAnswers() ? " did not end its stream"
              : " did not answer") + " within " + timeoutMillis + " ms"
          : status.kind() == CallStatus.Kind.FAILED ? status.cause().getMessage() : status.message();
      String details = StatusCode.isDeclared(status)
          ? GrpcStatus.details(code, status.cause(), method.protoService()) : null;
      return new End(code, text, details);
    }
  }
}
