package io.boltgen.processor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A deterministic JSON printer of maps (in their order; {@code Map.of} ones sorted by key), lists, strings, numbers
 * and booleans: the processor's JSON documents (OpenAPI) come out the same on every build.
 */
final class JsonText {

  private JsonText() {}

  static void write(Object value, StringBuilder out, String indent) {
    if (value instanceof Map<?, ?> map) {
      if (map.isEmpty()) {
        out.append("{}");
        return;
      }
      List<Object> keys = new ArrayList<>(map.keySet());
      if (!(map instanceof LinkedHashMap)) {
        keys.sort((a, b) -> a.toString().compareTo(b.toString()));
      }
      out.append("{\n");
      String inner = indent + "  ";
      for (int i = 0; i < keys.size(); i++) {
        out.append(inner);
        string(keys.get(i).toString(), out);
        out.append(": ");
        write(map.get(keys.get(i)), out, inner);
        out.append(i + 1 < keys.size() ? ",\n" : "\n");
      }
      out.append(indent).append('}');
    } else if (value instanceof List<?> list) {
      if (list.isEmpty()) {
        out.append("[]");
        return;
      }
      out.append("[\n");
      String inner = indent + "  ";
      for (int i = 0; i < list.size(); i++) {
        out.append(inner);
        write(list.get(i), out, inner);
        out.append(i + 1 < list.size() ? ",\n" : "\n");
      }
      out.append(indent).append(']');
    } else if (value instanceof String s) {
      string(s, out);
    } else if (value instanceof Number || value instanceof Boolean) {
      out.append(value);
    } else {
      throw new IllegalArgumentException("not JSON: " + value);
    }
  }

  private static void string(String s, StringBuilder out) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }
}
