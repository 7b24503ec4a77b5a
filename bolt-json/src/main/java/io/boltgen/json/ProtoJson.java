package io.boltgen.json;

import java.io.InputStream;
import java.io.OutputStream;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.json.JsonFactory;

/**
 * Reads and writes whole JSON documents with a {@link JsonMarshaller}, on jackson-core's streaming parser
 * (RFC 8259 exactly, see {@link StrictJson}; nesting bounded to {@value #MAX_DEPTH}) and generator.
 */
public final class ProtoJson {

  /** The deepest nesting of objects and arrays read (protobuf's own recursion limit). */
  public static final int MAX_DEPTH = 100;

  private static final JsonFactory FACTORY = StrictJson.factory(MAX_DEPTH);

  private ProtoJson() {}

  /** Writes {@code value} as one JSON document to {@code out} (UTF-8); does not close {@code out}. */
  public static <T> void write(JsonMarshaller<T> marshaller, T value, OutputStream out) {
    try (JsonGenerator generator = FACTORY.createGenerator(ObjectWriteContext.empty(), out)) {
      marshaller.write(value, generator);
    }
  }

  /**
   * Reads one JSON document (UTF-8) from {@code in}, exactly one value with only whitespace around it.
   *
   * @throws ProtoJsonException if the text is not JSON or does not follow the mapping; its message names
   *     the field and what was wrong
   */
  public static <T> T read(JsonMarshaller<T> marshaller, InputStream in, boolean ignoreUnknownFields) {
    try (JsonParser parser = FACTORY.createParser(ObjectReadContext.empty(), in)) {
      if (parser.nextToken() == null) {
        throw new ProtoJsonException("malformed JSON: no JSON value");
      }
      T value = marshaller.read(parser, ignoreUnknownFields);
      if (parser.nextToken() != null) {
        throw new ProtoJsonException("malformed JSON at offset " + parser.currentTokenLocation().getByteOffset()
            + ": unexpected text after the JSON value");
      }
      return value;
    } catch (JacksonException e) {
      long offset = e.getLocation() != null ? e.getLocation().getByteOffset() : -1;
      throw new ProtoJsonException("malformed JSON at offset " + offset + ": "
          + e.getOriginalMessage().replaceFirst(", from `[^`]*`\\)", ")"), e);
    }
  }
}
