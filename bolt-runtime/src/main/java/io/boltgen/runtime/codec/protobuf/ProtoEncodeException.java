package io.boltgen.runtime.codec.protobuf;

/** A value that cannot be encoded: it nests too deeply (or without end), or it changed while it was encoded. */
public final class ProtoEncodeException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  /** An encoding failure saying why. */
  public ProtoEncodeException(String message) {
    super(message);
  }
}
