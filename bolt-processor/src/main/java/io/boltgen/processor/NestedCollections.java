package io.boltgen.processor;

import io.boltgen.processor.Model.Field;
import io.boltgen.processor.Model.MapType;
import io.boltgen.processor.Model.Message;
import io.boltgen.processor.Model.MessageKind;
import io.boltgen.processor.Model.NestedType;
import io.boltgen.processor.Model.RepeatedType;
import io.boltgen.processor.Model.Site;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Collections inside collections ({@code List<List<String>>}, {@code int[][]}, {@code Map<String, List<Long>>}).
 * Protobuf has no repeated field of repeated fields and no repeated map value, so each inner collection type
 * becomes a message of the service's {@code .proto} holding it as its one field, {@code values = 1}, named after
 * the Java type ({@code List_String}, {@code Array_Int}, {@code Map_String_Long}), once per type. Hessian2 writes
 * the collection itself, as SOFARPC does.
 */
final class NestedCollections {

  private NestedCollections() {}

  /**
   * {@code element}, an element of a collection or array or a map's value, as it travels: itself, or a
   * {@link NestedType} when it is a collection, a map or an array, whose message is added to {@code scope}.
   */
  static Model.Type wrap(Model.Type element, Site site, TypeReader.Scope scope) {
    if (!(element instanceof RepeatedType || element instanceof MapType)) {
      return element;
    }
    String key = "nested:" + element.javaType();
    Message known = scope.messages.get(key);
    if (known != null) {
      return new NestedType(element, known.protoName());
    }
    Set<String> taken = new HashSet<>(scope.wrapperNames);
    scope.messages.values().stream().filter(m -> m != null).forEach(m -> taken.add(m.protoName())); // null: being read
    scope.enums.values().forEach(e -> taken.add(e.protoName()));
    String name = Names.unique(name(element), taken);
    Site at = Site.of(site.element());
    scope.messages.put(key, new Message(MessageKind.NESTED, name, element.javaType(),
        List.of(new Field("values", 1, element, at)), List.of(),
        "A " + Annotations.render(element.javaType()) + " inside a collection, an array or a map value: protobuf"
            + " has no repeated field of repeated fields.", at));
    return new NestedType(element, name);
  }

  /** The message name of a collection: its shape, then its elements' names ({@code List_String}). */
  private static String name(Model.Type t) {
    if (t instanceof RepeatedType r) {
      return (r.array() ? "Array" : r.set() ? "Set" : "List") + "_" + name(r.element());
    }
    if (t instanceof MapType m) {
      return "Map_" + name(m.key()) + "_" + name(m.value());
    }
    if (t instanceof NestedType n) {
      return name(n.inner());
    }
    if (t instanceof Model.MessageType m) {
      return m.protoName();
    }
    if (t instanceof Model.EnumType e) {
      return e.protoName();
    }
    if (t instanceof Model.ProtoMessageType p) {
      return p.protoName().substring(p.protoName().lastIndexOf('.') + 1);
    }
    if (t instanceof Model.BytesType) {
      return "Bytes";
    }
    String simple = t.javaType().toString();
    simple = simple.substring(simple.lastIndexOf('.') + 1);
    return Character.toUpperCase(simple.charAt(0)) + simple.substring(1); // Integer, Int, String, Instant
  }
}
