package io.boltgen.json;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;

/**
 * Reads and writes whole JSON documents (UTF-8) with a {@link JsonMarshaller}: RFC 8259 exactly, as
 * {@link StrictJson} states the rules, nesting bounded to {@value #MAX_DEPTH}.
 *
 * <p>A document is read whole into a buffer first and written through one. Each thread keeps one such buffer of at
 * most {@value #KEPT_BUFFER} bytes from document to document; a longer document's is dropped after it.
 */
public final class ProtoJson {

  /** The deepest nesting of objects and arrays read (protobuf's own recursion limit). */
  public static final int MAX_DEPTH = 100;

  /** The largest buffer a thread keeps for the next document, in bytes. */
  static final int KEPT_BUFFER = 64 * 1024;
  private static final int WRITE_BUFFER = 4096;
  private static final ThreadLocal<byte[]> BUFFERS = new ThreadLocal<>();

  private ProtoJson() {}

  /** Writes {@code value} as one JSON document to {@code out} (UTF-8); does not close {@code out}. */
  public static <T> void write(JsonMarshaller<T> marshaller, T value, OutputStream out) {
    byte[] buffer = take(WRITE_BUFFER);
    try {
      JsonWriter writer = new JsonWriter(out, buffer);
      marshaller.write(value, writer);
      writer.finish();
    } finally {
      give(buffer);
    }
  }

  /**
   * Reads one JSON document (UTF-8) from {@code in} to its end: exactly one value with only whitespace around it.
   *
   * @throws ProtoJsonException if the text is not JSON or does not follow the mapping; its message names
   *     the field and what was wrong
   * @throws UncheckedIOException if {@code in} fails
   * @throws IllegalStateException if {@code marshaller} reads out of order, or returns inside an object or array
   */
  public static <T> T read(JsonMarshaller<T> marshaller, InputStream in, boolean ignoreUnknownFields) {
    byte[] buffer = take(WRITE_BUFFER);
    try {
      int length = 0;
      while (true) {
        if (length == buffer.length) {
          give(buffer); // the kept one may be too small now; a grown one replaces it if small enough
          buffer = Arrays.copyOf(buffer, buffer.length * 2);
        }
        int n = in.read(buffer, length, buffer.length - length);
        if (n < 0) {
          break;
        }
        length += n;
      }
      return read(marshaller, buffer, length, ignoreUnknownFields);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      give(buffer);
    }
  }

  private static <T> T read(JsonMarshaller<T> marshaller, byte[] bytes, int length, boolean ignoreUnknownFields) {
    JsonLexer lexer = new JsonLexer(bytes, length, MAX_DEPTH);
    JsonReader reader = new JsonReader(lexer, ignoreUnknownFields);
    try {
      if (lexer.atEnd()) {
        throw new ProtoJsonException("malformed JSON: no JSON value");
      }
      lexer.nextValue();
      T value = marshaller.read(reader);
      if (lexer.depth() > 0) { // a marshaller that returned early: the rest must still be read (and checked)
        throw new IllegalStateException(marshaller + " returned inside an object or array of the document");
      }
      if (!lexer.atEnd()) {
        throw new ProtoJsonException("malformed JSON at offset " + lexer.offset()
            + ": unexpected text after the JSON value");
      }
      return value;
    } catch (JsonLexer.Malformed e) {
      throw reader.malformed(e);
    }
  }

  /** The thread's kept buffer, if it is free and large enough, else a new one. */
  private static byte[] take(int size) {
    byte[] kept = BUFFERS.get();
    if (kept != null && kept.length >= size) {
      BUFFERS.set(null); // a document read or written inside this one gets its own
      return kept;
    }
    return new byte[size];
  }

  private static void give(byte[] buffer) {
    if (buffer.length <= KEPT_BUFFER) {
      byte[] kept = BUFFERS.get();
      if (kept == null || kept.length < buffer.length) {
        BUFFERS.set(buffer);
      }
    }
  }
}
