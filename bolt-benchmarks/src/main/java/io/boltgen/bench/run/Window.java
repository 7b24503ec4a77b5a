package io.boltgen.bench.run;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * One measured window: {@code system} at {@code point} (its id) in run {@code run}; {@code repeat} marks the
 * re-measurement of a client's first point after all its points (the warm-up check). Travels from the client JVM
 * to the runner as one line of tab-separated {@code name=value} fields, one per record component.
 */
public record Window(String system, String point, int run, boolean repeat, Measured m) {

  /** The line {@link #parse} reads. */
  public String toLine() {
    StringJoiner line = new StringJoiner("\t");
    fields(this, line);
    return line.toString();
  }

  /** The window of {@link #toLine()}. */
  public static Window parse(String line) {
    Map<String, String> fields = new LinkedHashMap<>();
    for (String part : line.split("\t")) {
      int eq = part.indexOf('=');
      if (eq > 0) {
        fields.put(part.substring(0, eq), part.substring(eq + 1));
      }
    }
    return read(Window.class, fields);
  }

  private static void fields(Record r, StringJoiner line) {
    for (RecordComponent c : r.getClass().getRecordComponents()) {
      Object v = value(c, r);
      if (v instanceof Record nested) {
        fields(nested, line);
      } else {
        String s = v instanceof List<?> list ? String.join(",", list.stream().map(String::valueOf).toList())
            : String.valueOf(v);
        line.add(c.getName() + "=" + s.replace('\t', ' ').replace('\n', ' ').replace('\r', ' '));
      }
    }
  }

  private static Object value(RecordComponent c, Record r) {
    try {
      return c.getAccessor().invoke(r);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }

  private static <T extends Record> T read(Class<T> type, Map<String, String> fields) {
    RecordComponent[] components = type.getRecordComponents();
    Object[] values = new Object[components.length];
    Class<?>[] types = new Class<?>[components.length];
    for (int i = 0; i < components.length; i++) {
      RecordComponent c = components[i];
      types[i] = c.getType();
      String v = fields.get(c.getName());
      if (Record.class.isAssignableFrom(types[i])) {
        values[i] = read(types[i].asSubclass(Record.class), fields);
      } else if (v == null) {
        throw new IllegalArgumentException("no " + c.getName() + " in " + fields);
      } else if (types[i] == List.class) {
        Class<?> element = (Class<?>) ((ParameterizedType) c.getGenericType()).getActualTypeArguments()[0];
        List<Object> list = new ArrayList<>();
        for (String s : v.isEmpty() ? new String[0] : v.split(",")) {
          list.add(element == Long.class ? (Object) Long.parseLong(s) : (Object) Double.parseDouble(s));
        }
        values[i] = list;
      } else {
        values[i] = types[i] == String.class ? v : types[i] == int.class ? Integer.parseInt(v)
            : types[i] == long.class ? Long.parseLong(v) : types[i] == boolean.class ? Boolean.parseBoolean(v)
            : (Object) Double.parseDouble(v);
      }
    }
    try {
      return type.getDeclaredConstructor(types).newInstance(values);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }
}
