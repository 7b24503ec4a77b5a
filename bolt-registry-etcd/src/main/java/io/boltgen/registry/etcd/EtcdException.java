package io.boltgen.registry.etcd;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * etcd refused a request: the gateway answered with an error ({@code {"error":…,"message":…,"code":…}}, the
 * gRPC status code and message), as opposed to not answering at all.
 */
final class EtcdException extends IOException {

  private static final long serialVersionUID = 1L;

  /** gRPC's NOT_FOUND, what etcd answers for an unknown lease. */
  static final int NOT_FOUND = 5;

  private final int httpStatus;
  private final int grpcCode;

  EtcdException(int httpStatus, int grpcCode, String message) {
    super(message);
    this.httpStatus = httpStatus;
    this.grpcCode = grpcCode;
  }

  /** The error an error reply's body describes (a short text if it is not the gateway's JSON). */
  static EtcdException of(int httpStatus, byte[] body) {
    String text = new String(body, StandardCharsets.UTF_8).strip();
    try {
      Map<String, Object> error = EtcdJson.parseObject(text);
      Object nested = error.get("error");
      if (nested instanceof Map) { // a streaming reply's error line: {"error":{"grpc_code":…,"message":…}}
        @SuppressWarnings("unchecked")
        Map<String, Object> inner = (Map<String, Object>) nested;
        return new EtcdException(httpStatus, (int) EtcdJson.int64(inner, "grpc_code"),
            "etcd: " + EtcdJson.string(inner, "message", "HTTP " + httpStatus));
      }
      return new EtcdException(httpStatus, (int) EtcdJson.int64(error, "code"),
          "etcd: " + EtcdJson.string(error, "message", "HTTP " + httpStatus));
    } catch (RuntimeException notTheGatewaysJson) {
      String shown = text.length() > 200 ? text.substring(0, 200) + "…" : text;
      return new EtcdException(httpStatus, 0, "etcd: HTTP " + httpStatus + (shown.isEmpty() ? "" : ": " + shown));
    }
  }

  /** The HTTP status of the reply. */
  int httpStatus() {
    return httpStatus;
  }

  /** The gRPC status code etcd gave, 0 if none. */
  int grpcCode() {
    return grpcCode;
  }

  /** Whether etcd said the lease does not exist (expired or revoked). */
  boolean leaseNotFound() {
    return getMessage().contains("requested lease not found");
  }
}
