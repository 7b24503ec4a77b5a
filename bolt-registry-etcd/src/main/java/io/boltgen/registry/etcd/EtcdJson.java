package io.boltgen.registry.etcd;

import io.boltgen.json.StrictJson;
import io.boltgen.runtime.support.MessageText;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.json.JsonFactory;

/**
 * The JSON of etcd's gateway: its replies, and each line of a streaming reply ({@code {"result":{…}}}), read
 * with jackson-core by the runtime's {@link StrictJson} rules (RFC 8259 exactly, one value, no duplicate names,
 * nesting at most {@value #MAX_DEPTH} deep) into {@code Map<String, Object>} (in order), {@code List<Object>},
 * {@code String}, {@code Long} (integers that fit), {@code Double} (other numbers), {@code Boolean} and
 * {@code null}; and getters of a member that name it when its type is wrong. The instance values inside are
 * read by {@link io.boltgen.json.InstanceRecord}.
 */
final class EtcdJson {

  /** The deepest nesting read; the gateway's replies are at most about 6 deep. */
  static final int MAX_DEPTH = 64;

  private static final JsonFactory READER = StrictJson.factory(MAX_DEPTH);

  private EtcdJson() {}

  /**
   * Reads one JSON value spanning all of {@code text} (whitespace around it allowed).
   *
   * @throws IllegalArgumentException {@code malformed JSON at offset N: what} if it breaks the rules
   */
  static Object parse(String text) {
    return StrictJson.read(READER, text, EtcdJson::value);
  }

  /** Reads a JSON object spanning all of {@code text}. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> parseObject(String text) {
    Object value = parse(text);
    if (!(value instanceof Map)) {
      throw new IllegalArgumentException("expected a JSON object, got " + typeName(value));
    }
    return (Map<String, Object>) value;
  }

  /** The value at {@code json}'s current token, read to its last token (nesting is bounded by the parser). */
  private static Object value(JsonParser json) {
    return switch (json.currentToken()) {
      case START_OBJECT -> {
        Map<String, Object> object = new LinkedHashMap<>();
        for (String name = json.nextName(); name != null; name = json.nextName()) {
          json.nextToken();
          object.put(name, value(json));
        }
        yield object;
      }
      case START_ARRAY -> {
        List<Object> array = new ArrayList<>();
        while (json.nextToken() != JsonToken.END_ARRAY) {
          array.add(value(json));
        }
        yield array;
      }
      case VALUE_STRING -> json.getString();
      case VALUE_NUMBER_INT -> json.getNumberType() == JsonParser.NumberType.BIG_INTEGER
          ? (Object) json.getDoubleValue() : (Object) json.getLongValue();
      case VALUE_NUMBER_FLOAT -> json.getDoubleValue();
      case VALUE_TRUE -> true;
      case VALUE_FALSE -> false;
      case VALUE_NULL -> null;
      default -> throw new IllegalArgumentException("unexpected " + json.currentToken()); // never from JSON text
    };
  }

  /** What {@code value} is, with its article: "an object", "a string", "null"… */
  static String typeName(Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof Map) {
      return "an object";
    }
    if (value instanceof List) {
      return "an array";
    }
    if (value instanceof String) {
      return "a string";
    }
    return value instanceof Boolean ? "a boolean" : "a number";
  }

  /** The object member {@code name} of {@code object}, or an empty map when absent. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> object(Map<String, Object> object, String name) {
    return member(object, name, Map.class, Map.of(), "an object");
  }

  /** The array member {@code name} of {@code object}, or an empty list when absent. */
  @SuppressWarnings("unchecked")
  static List<Object> array(Map<String, Object> object, String name) {
    return member(object, name, List.class, List.of(), "an array");
  }

  /** The string member {@code name}, or {@code fallback} when absent. */
  static String string(Map<String, Object> object, String name, String fallback) {
    return member(object, name, String.class, fallback, "a string");
  }

  /** The boolean member {@code name}, false when absent. */
  static boolean bool(Map<String, Object> object, String name) {
    return member(object, name, Boolean.class, Boolean.FALSE, "a boolean");
  }

  /**
   * The int64 member {@code name}, which the gateway writes as a string (or a number), or 0 when absent
   * (proto3 leaves zero values out).
   */
  static long int64(Map<String, Object> object, String name) {
    Object value = object.get(name);
    if (value instanceof String digits) {
      try {
        return Long.parseLong(digits);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("\"" + name + "\" is not an int64: " + MessageText.quote(digits));
      }
    }
    return member(object, name, Long.class, 0L, "an int64");
  }

  /** Member {@code name} of {@code object}: {@code fallback} when absent or null, else it must be a {@code type}. */
  private static <T> T member(Map<String, Object> object, String name, Class<? super T> type, T fallback,
      String expected) {
    Object value = object.get(name);
    if (value == null) {
      return fallback;
    }
    if (!type.isInstance(value)) {
      throw new IllegalArgumentException("\"" + name + "\" is " + typeName(value) + ", not " + expected);
    }
    @SuppressWarnings("unchecked")
    T member = (T) value;
    return member;
  }
}
