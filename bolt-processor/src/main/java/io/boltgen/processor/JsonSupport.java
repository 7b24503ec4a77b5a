package io.boltgen.processor;

import io.boltgen.processor.Model.Field;
import io.boltgen.processor.Model.MapType;
import io.boltgen.processor.Model.Message;
import io.boltgen.processor.Model.MessageType;
import io.boltgen.processor.Model.Method;
import io.boltgen.processor.Model.OptionalType;
import io.boltgen.processor.Model.ProtoMessageType;
import io.boltgen.processor.Model.RepeatedType;
import io.boltgen.processor.Model.Service;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which messages, and so which methods, of a service have a generated JSON form. All do but those that reach,
 * through their fields at any depth, a protobuf-java message other than {@code google.protobuf.Timestamp} and
 * {@code Duration}: its JSON form is the one its descriptor gives, which generated code cannot know without
 * protobuf-java-util (a dependency the runtime does not take) or protobuf's reflection. A method with such a
 * request or response has no JSON form: its descriptor gets no {@code JsonForms}. Also without one is a message
 * two of whose fields share a name in JSON ({@code fooBar} and {@code foo_bar}), which protoc refuses as well.
 */
final class JsonSupport {

  private final Set<String> unsupported = new HashSet<>();

  JsonSupport(Service service) {
    for (Message m : service.messages()) {
      if (!namesAreDistinct(m)) {
        unsupported.add(m.protoName());
      }
    }
    boolean changed = true;
    while (changed) { // a message is unsupported if it reaches one that is
      changed = false;
      for (Message m : service.messages()) {
        if (!unsupported.contains(m.protoName()) && !fieldsSupported(m)) {
          unsupported.add(m.protoName());
          changed = true;
        }
      }
    }
  }

  /** Whether {@code message} has a JSON form. */
  boolean supports(Message message) {
    return !unsupported.contains(message.protoName()) && namesAreDistinct(message) && fieldsSupported(message);
  }

  /** Whether {@code method}'s request and response have a JSON form. */
  boolean supports(Method method) {
    return supports(method.request()) && supports(method.response());
  }

  /** Whether a protobuf-java message is one whose JSON form generated code writes itself. */
  static boolean wellKnown(ProtoMessageType type) {
    return type.protoName().equals(WellKnownTypes.TIMESTAMP) || type.protoName().equals(WellKnownTypes.DURATION);
  }

  private boolean fieldsSupported(Message message) {
    for (Field f : message.fields()) {
      if (!supported(f.type())) {
        return false;
      }
    }
    return true;
  }

  private boolean supported(Model.Type t) {
    if (t instanceof RepeatedType r) {
      return supported(r.element());
    }
    if (t instanceof MapType m) {
      return supported(m.key()) && supported(m.value());
    }
    if (t instanceof OptionalType o) {
      return supported(o.value());
    }
    if (t instanceof Model.NestedType n) {
      return supported(n.inner());
    }
    if (t instanceof ProtoMessageType p) {
      return wellKnown(p);
    }
    if (t instanceof MessageType m) {
      return !unsupported.contains(m.protoName());
    }
    return true;
  }

  /** Whether every name a field answers to in JSON (its JSON name and its {@code .proto} name) is its own. */
  private static boolean namesAreDistinct(Message message) {
    Map<String, Field> owners = new HashMap<>();
    for (Field f : message.fields()) {
      for (String name : List.of(f.name(), Names.jsonName(f.name()))) {
        Field owner = owners.putIfAbsent(name, f);
        if (owner != null && !owner.equals(f)) {
          return false;
        }
      }
    }
    return true;
  }
}
