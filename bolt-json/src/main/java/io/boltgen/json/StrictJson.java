package io.boltgen.json;

import io.boltgen.runtime.support.Internal;
import java.util.function.Function;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.json.JsonFactoryBuilder;
import tools.jackson.core.json.JsonReadFeature;

/**
 * The one set of rules by which boltgen reads JSON: here a registry entry and etcd's replies, on jackson-core's
 * streaming parser, and messages by {@link ProtoJson}'s own reader, which follows them too. RFC 8259 exactly, so
 * no comments, single quotes, unquoted names, trailing commas, leading zeros, {@code +}, {@code NaN} or unescaped
 * control characters; <b>a duplicate name in an object is refused</b>, whatever its values; nesting is bounded
 * (by the caller), and so is a number, to {@value #MAX_NUMBER_LENGTH} characters; exactly one value, with only
 * whitespace around it. The caller bounds the size of the text. Every failure is an
 * {@link IllegalArgumentException} {@code malformed JSON at offset N: what}.
 */
@Internal
public final class StrictJson {

  /** The longest number read, in characters (Jackson's default, stated here so that it cannot drift). */
  public static final int MAX_NUMBER_LENGTH = 1_000;

  private StrictJson() {}

  /** A factory of parsers that follow these rules and refuse nesting deeper than {@code maxDepth}. */
  public static JsonFactory factory(int maxDepth) {
    JsonFactoryBuilder builder = JsonFactory.builder()
        .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
        .streamReadConstraints(StreamReadConstraints.builder()
            .maxNestingDepth(maxDepth)
            .maxNumberLength(MAX_NUMBER_LENGTH)
            .build());
    for (JsonReadFeature leniency : JsonReadFeature.values()) {
      builder.disable(leniency); // each one allows something RFC 8259 does not
    }
    return builder.build();
  }

  /**
   * Reads {@code text}, one JSON value: {@code reader} gets a parser of {@code factory} on the value's first
   * token and reads the value to its last token; nothing but whitespace may follow it.
   *
   * @throws IllegalArgumentException {@code malformed JSON at offset N: what} if {@code text} breaks the rules,
   *     or whatever {@code reader} throws about a value it refuses
   */
  public static <T> T read(JsonFactory factory, String text, Function<JsonParser, T> reader) {
    try (JsonParser parser = factory.createParser(ObjectReadContext.empty(), text)) {
      try {
        if (parser.nextToken() == null) {
          throw malformed(parser.currentLocation(), "no JSON value");
        }
        T value = reader.apply(parser);
        if (parser.nextToken() != null) {
          throw malformed(parser.currentTokenLocation(), "unexpected text after the JSON value");
        }
        return value;
      } catch (JacksonException e) {
        TokenStreamLocation where = e.getLocation() != null ? e.getLocation() : parser.currentLocation();
        // a limit names the StreamReadConstraints getter behind it: not for the reader of a log line
        throw malformed(where, e.getOriginalMessage().replaceFirst(", from `[^`]*`\\)", ")"));
      }
    }
  }

  private static IllegalArgumentException malformed(TokenStreamLocation where, String what) {
    return new IllegalArgumentException("malformed JSON at offset " + where.getCharOffset() + ": " + what);
  }
}
