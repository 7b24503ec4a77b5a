package io.boltgen.runtime.internal.http;

import io.boltgen.runtime.call.CallStatus;
import io.boltgen.runtime.call.StatusCode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.function.Consumer;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.json.JsonFactory;

/**
 * Connect's errors: a code, its HTTP status (the Connect protocol's table), and the JSON body
 * {@code {"code": ..., "message": ..., "details": [...]}}. The code of a call's end is the runtime's one table
 * ({@link StatusCode}), so that a call fails the same way over Connect as over gRPC and Bolt.
 */
final class ConnectRpcErrors {

  static final String CANCELED = "canceled";
  static final String UNKNOWN = "unknown";
  static final String INVALID_ARGUMENT = "invalid_argument";
  static final String DEADLINE_EXCEEDED = "deadline_exceeded";
  static final String NOT_FOUND = "not_found";
  static final String PERMISSION_DENIED = "permission_denied";
  static final String RESOURCE_EXHAUSTED = "resource_exhausted";
  static final String FAILED_PRECONDITION = "failed_precondition";
  static final String UNIMPLEMENTED = "unimplemented";
  static final String INTERNAL = "internal";
  static final String UNAVAILABLE = "unavailable";

  /** What a 503 asks its client to wait before trying again, in seconds ({@code Retry-After}). */
  static final String RETRY_AFTER_SECONDS = "1";

  /** The JSON content type of every error body. */
  static final String JSON = "application/json";

  /** The bytes before each message of a Connect stream: its flags, then its length. */
  static final int ENVELOPE_PREFIX = 5;

  /** The flag of a Connect stream's last envelope, the end of the stream. */
  static final int END_OF_STREAM = 0x02;

  private static final JsonFactory FACTORY = JsonFactory.builder().build();

  private ConnectRpcErrors() {}

  /** The Connect code of a served call's end (the one table of every protocol, {@link StatusCode#of(CallStatus)}). */
  static String code(CallStatus status) {
    return StatusCode.of(status).connectName();
  }

  /** The HTTP status of a Connect code (the protocol's table). */
  static HttpResponseStatus httpStatus(String code) {
    return switch (code) {
      case CANCELED -> HttpResponseStatus.valueOf(499, "Client Closed Request");
      case INVALID_ARGUMENT, FAILED_PRECONDITION, "out_of_range" -> HttpResponseStatus.BAD_REQUEST;
      case DEADLINE_EXCEEDED -> HttpResponseStatus.GATEWAY_TIMEOUT;
      case NOT_FOUND -> HttpResponseStatus.NOT_FOUND;
      case "already_exists", "aborted" -> HttpResponseStatus.CONFLICT;
      case PERMISSION_DENIED -> HttpResponseStatus.FORBIDDEN;
      case RESOURCE_EXHAUSTED -> HttpResponseStatus.TOO_MANY_REQUESTS;
      case UNIMPLEMENTED -> HttpResponseStatus.NOT_IMPLEMENTED;
      case UNAVAILABLE -> HttpResponseStatus.SERVICE_UNAVAILABLE;
      case "unauthenticated" -> HttpResponseStatus.UNAUTHORIZED;
      default -> HttpResponseStatus.INTERNAL_SERVER_ERROR; // unknown, internal, data_loss
    };
  }

  /** An error answer with the status of {@code code}. */
  static FullHttpResponse response(ByteBufAllocator alloc, String code, String message) {
    return response(alloc, httpStatus(code), code, message, null, null);
  }

  /**
   * An error answer with an explicit HTTP status (for the transport's own refusals, such as 405 or 413), and
   * optionally one detail: {@code detailType} (a declared exception's class) with its message as debug JSON.
   */
  static FullHttpResponse response(ByteBufAllocator alloc, HttpResponseStatus status, String code, String message,
      String detailType, String detailMessage) {
    ByteBuf body = json(alloc, 0, message, json -> writeError(json, code, message, detailType, detailMessage));
    FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, body);
    response.headers().set(HttpHeaderNames.CONTENT_TYPE, JSON);
    response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.readableBytes());
    if (status.code() == HttpResponseStatus.SERVICE_UNAVAILABLE.code()) {
      response.headers().set(HttpHeaderNames.RETRY_AFTER, RETRY_AFTER_SECONDS);
    }
    return response;
  }

  /**
   * The end of a Connect stream as its last envelope (flag 2, end of stream): {@code {}} when {@code code} is null
   * (the stream ended well), else {@code {"error": …}} with the code, message and detail a unary error carries.
   */
  static ByteBuf endOfStream(ByteBufAllocator alloc, String code, String message, String detailType,
      String detailMessage) {
    ByteBuf body = json(alloc, ENVELOPE_PREFIX, message, json -> {
      json.writeStartObject();
      if (code != null) {
        json.writeName("error");
        writeError(json, code, message, detailType, detailMessage);
      }
      json.writeEndObject();
    });
    body.setByte(0, END_OF_STREAM);
    body.setInt(1, body.readableBytes() - ENVELOPE_PREFIX);
    return body;
  }

  /** A new buffer of {@code headroom} zero bytes, then the JSON {@code writer} writes (sized for {@code message}). */
  private static ByteBuf json(ByteBufAllocator alloc, int headroom, String message, Consumer<JsonGenerator> writer) {
    ByteBuf body = alloc.buffer(headroom + 64 + (message == null ? 0 : message.length() * 2));
    body.writeZero(headroom);
    try (ByteBufOutputStream out = new ByteBufOutputStream(body);
        JsonGenerator json = FACTORY.createGenerator(ObjectWriteContext.empty(), (java.io.OutputStream) out)) {
      writer.accept(json);
    } catch (IOException e) {
      body.release();
      throw new UncheckedIOException(e);
    } catch (RuntimeException | Error e) {
      body.release();
      throw e;
    }
    return body;
  }

  /** One Connect error object: its code, message (if any) and one detail (if any). */
  private static void writeError(JsonGenerator json, String code, String message, String detailType,
      String detailMessage) {
    json.writeStartObject();
    json.writeStringProperty("code", code);
    if (message != null && !message.isEmpty()) {
      json.writeStringProperty("message", message);
    }
    if (detailType != null) {
      json.writeName("details");
      json.writeStartArray();
      json.writeStartObject();
      json.writeStringProperty("type", detailType);
      json.writeStringProperty("value", "");
      json.writeName("debug");
      json.writeStartObject();
      json.writeStringProperty("exception", detailType);
      if (detailMessage != null) {
        json.writeStringProperty("message", detailMessage);
      }
      json.writeEndObject();
      json.writeEndObject();
      json.writeEndArray();
    }
    json.writeEndObject();
  }
}
