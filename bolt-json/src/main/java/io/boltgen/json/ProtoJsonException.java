package io.boltgen.json;

/** A JSON document that is not JSON, or does not follow the proto3 JSON mapping of its message. */
public final class ProtoJsonException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  /** An exception whose message says which field and what was wrong. */
  public ProtoJsonException(String message) {
    super(message);
  }

  /** An exception whose message says which field and what was wrong, caused by {@code cause}. */
  public ProtoJsonException(String message, Throwable cause) {
    super(message, cause);
  }
}
