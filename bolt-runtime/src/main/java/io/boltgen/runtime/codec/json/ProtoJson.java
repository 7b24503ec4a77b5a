package io.boltgen.runtime.codec.json;

import java.io.InputStream;
import java.io.OutputStream;

/**
 * Reads and writes whole JSON documents with a {@link JsonMarshaller}. PLACEHOLDER: the codegen work
 * replaces the bodies; the signatures are what the HTTP layer calls.
 */
public final class ProtoJson {

  private ProtoJson() {}

  /** Writes {@code value} as one JSON document to {@code out} (UTF-8); does not close {@code out}. */
  public static <T> void write(JsonMarshaller<T> marshaller, T value, OutputStream out) {
    throw new UnsupportedOperationException("not yet");
  }

  /**
   * Reads one JSON document (UTF-8) from {@code in}, exactly one value with only whitespace around it.
   *
   * @throws ProtoJsonException if the text is not JSON or does not follow the mapping; its message names
   *     the field and what was wrong
   */
  public static <T> T read(JsonMarshaller<T> marshaller, InputStream in, boolean ignoreUnknownFields) {
    throw new UnsupportedOperationException("not yet");
  }
}
