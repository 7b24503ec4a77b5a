package io.boltgen.processor;

import io.boltgen.processor.ProtoSchema.EnumDef;
import io.boltgen.processor.ProtoSchema.Field;
import io.boltgen.processor.ProtoSchema.Label;
import io.boltgen.processor.ProtoSchema.Message;
import io.boltgen.processor.ProtoSchema.Rpc;
import io.boltgen.processor.ProtoSchema.Value;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The wire-breaking differences between a baseline schema and the current one. Structural: rpcs are
 * matched by their Bolt method name, a method's request and response by the method (never by message
 * name), and every message or enum a field refers to is paired with the one the same field refers to now,
 * so renaming a message or enum is not a break. Each pair is compared once, so a change of a shared
 * message is reported once. Pure: the caller maps each {@link Break} to a Java element.
 */
final class SchemaDiff {

  static final String ACCEPT = ", or run mvn clean compile -Dboltgen.baseline.update=true (javac: "
      + "-Aboltgen.baseline.update=true) to accept the break deliberately.";

  /** What a break is about, in the current schema; fields that do not apply are null. */
  enum Kind { SERVICE_NAME, SERVICE_VERSION, SERVICE, METHOD, MESSAGE, FIELD, ENUM, ENUM_VALUE }

  /**
   * Where to report a break: {@code method} is a Bolt method name, {@code type} a message or enum of the
   * current schema, {@code member} a field or enum value name in it.
   */
  record Target(Kind kind, String method, String type, String member) {}

  /** One wire-breaking change: its tag (without {@code [Bolt/]}), where it is, and the full message. */
  record Break(String tag, Target target, String message) {}

  private final ProtoSchema base;
  private final ProtoSchema cur;
  private final String where;
  private final Map<String, String> wrapperOf = new HashMap<>();
  private final Set<String> compared = new HashSet<>();
  private final List<Break> breaks = new ArrayList<>();

  /** {@code where} names the baseline file in messages. */
  SchemaDiff(ProtoSchema base, ProtoSchema cur, String where) {
    this.base = base;
    this.cur = cur;
    this.where = where;
    for (Rpc r : cur.rpcs()) {
      wrapperOf.put(r.request(), "request:" + r.method());
      wrapperOf.put(r.response(), "response:" + r.method());
    }
  }

  List<Break> breaks() {
    if (base.service() != null && cur.service() != null && !base.service().equals(cur.service())) {
      add("ServiceRenamed", new Target(Kind.SERVICE_NAME, null, null, null), "the service was named "
          + base.service() + " in the baseline " + where + " and is " + cur.service() + " now: every className ("
          + base.service() + ":" + base.version() + "/...) changes, so older peers reach none of its methods. Keep"
          + " the name (serve a new name from a new interface)" + ACCEPT);
    } else if (base.version() != null && cur.version() != null && !base.version().equals(cur.version())) {
      add("ServiceVersionChanged", new Target(Kind.SERVICE_VERSION, null, null, null), "the version of service "
          + cur.service() + " was " + base.version() + " in the baseline " + where + " and is " + cur.version()
          + " now: every className (" + cur.service() + ":" + base.version() + "/...) changes, so older peers"
          + " reach none of its methods. A new version is a new service: keep this interface at "
          + base.version() + " and serve the new version from a new interface" + ACCEPT);
    }
    for (Rpc b : base.rpcs()) {
      Rpc c = cur.rpc(b.method());
      if (c == null) {
        add("MethodRemoved", new Target(Kind.SERVICE, null, null, null), "method " + b.method()
            + (b.className() == null ? "" : " (className " + b.className() + ")") + " of the baseline " + at(b.line())
            + " is gone: older clients calling it fail with NO_PROCESSOR. Keep it; if it was renamed, keep its wire"
            + " name with @BoltMethod(name = \"" + b.method() + "\")" + ACCEPT);
        continue;
      }
      if (b.style() != null && c.style() != null && b.oneway() != c.oneway()) {
        add("CallStyleChanged", new Target(Kind.METHOD, c.method(), null, null), "method " + c.method() + " was "
            + b.style() + " in the baseline " + at(b.line()) + " and is " + c.style() + " now: a oneway request and a"
            + " request with an answer are different Bolt commands, so one side waits for an answer the other never"
            + " sends, or answers a call nobody waits for. Keep it " + (b.oneway() ? "@Oneway" : "not @Oneway")
            + ACCEPT);
      }
      if (b.style() != null && c.style() != null && !b.streaming().equals(c.streaming())) {
        add("CallStyleChanged", new Target(Kind.METHOD, c.method(), null, null), "method " + c.method() + " was "
            + b.style() + " in the baseline " + at(b.line()) + " and is " + c.style() + " now: a stream's messages"
            + " are read until its end, a unary call's one message, so neither side understands the other."
            + " Keep its signature " + (b.streaming().equals("unary") ? "unary" : "a " + b.style()) + ACCEPT);
      }
      messages(b.request(), c.request());
      messages(b.response(), c.response());
    }
    return List.copyOf(breaks);
  }

  private void messages(String baseName, String curName) {
    Message b = base.messages().get(baseName);
    Message c = cur.messages().get(curName);
    if (b == null || c == null || !compared.add("message " + baseName + " " + curName)) {
      return;
    }
    for (Field bf : b.fields()) {
      Field byName = c.field(bf.name());
      Field byNumber = c.number(bf.number());
      if (byName != null && byName.number() != bf.number()) {
        add("FieldRenumbered", field(c, byName), describe(c, byName) + " was number " + bf.number()
            + " in the baseline " + at(bf.line()) + " and is " + byName.number() + " now: older peers read it as"
            + " another field. " + renumberAdvice(c, bf.number()) + ACCEPT);
      } else if (byName != null) {
        retyped(bf, byName, b, c);
      } else if (byNumber != null && b.field(byNumber.name()) == null) {
        add("FieldNumberReused", field(c, byNumber), describe(c, byNumber) + " has number " + bf.number()
            + ", which was " + bf.spelling() + " " + bf.name() + " in the baseline " + at(bf.line()) + ": older peers"
            + " read the one as the other. " + newNumberAdvice(c) + ACCEPT);
      } else if (byNumber == null && !c.reserves(bf.number()) && !c.reservedNames().contains(bf.name())) {
        add("FieldRemoved", new Target(Kind.MESSAGE, method(c), c.name(), null), removedText(c, bf));
      }
    }
    for (Field cf : c.fields()) {
      if (b.field(cf.name()) == null && b.number(cf.number()) == null && b.reserves(cf.number())) {
        add("FieldNumberReused", field(c, cf), describe(c, cf) + " has number " + cf.number() + ", which is reserved"
            + " in the baseline " + at(b.line()) + ": it belonged to a removed field that older peers may still send. "
            + newNumberAdvice(c) + ACCEPT);
      }
    }
  }

  private void retyped(Field bf, Field cf, Message b, Message c) {
    boolean same = bf.label() == cf.label() && (bf.label() != Label.MAP || bf.key().equals(cf.key()))
        && sameType(bf.type(), cf.type());
    if (!same) {
      add("FieldRetyped", field(c, cf), describe(c, cf) + " (number " + cf.number() + ") was " + bf.spelling()
          + " in the baseline " + at(bf.line()) + " and is " + cf.spelling() + " now: older peers encode or decode"
          + " it differently (presence, cardinality and integer width count too). " + retypeAdvice(c) + ACCEPT);
      return;
    }
    Set<Integer> before = oneofPeers(b, bf);
    Set<Integer> after = oneofPeers(c, cf);
    before.retainAll(numbers(c));
    after.retainAll(numbers(b));
    if (!before.equals(after)) {
      add("OneofChanged", field(c, cf), describe(c, cf) + " (number " + cf.number() + ") shared a oneof with "
          + before + " in the baseline " + at(bf.line()) + " and shares one with " + after + " now: setting one"
          + " member clears the others, so older peers lose values. Only new fields may join a oneof" + ACCEPT);
    }
  }

  /** Whether two type names denote the same wire type; pairs messages and enums to compare them too. */
  private boolean sameType(String baseType, String curType) {
    String b = base.local(baseType);
    String c = cur.local(curType);
    if (b == null || c == null) {
      return b == null && c == null && strip(baseType).equals(strip(curType));
    }
    if (base.messages().containsKey(b) && cur.messages().containsKey(c)) {
      messages(b, c);
      return true;
    }
    if (base.enums().containsKey(b) && cur.enums().containsKey(c)) {
      enums(base.enums().get(b), cur.enums().get(c));
      return true;
    }
    return false;
  }

  private void enums(EnumDef b, EnumDef c) {
    if (!compared.add("enum " + b.name() + " " + c.name())) {
      return;
    }
    String what = "enum " + c.name() + (c.javaName() == null ? "" : " (" + c.javaName() + ")");
    for (Value bv : b.values()) {
      Value byName = value(c, key(b, bv.name()));
      Value byNumber = c.number(bv.number());
      if (byName != null && byName.number() != bv.number()) {
        add("EnumValueRenumbered", new Target(Kind.ENUM_VALUE, null, c.name(), byName.name()), "value " + byName.name()
            + " of " + what + " was number " + bv.number() + " in the baseline " + at(bv.line()) + " and is "
            + byName.number() + " now: older peers read it as another value. Enum constants are numbered by"
            + " declaration order: restore the order and only append new constants" + ACCEPT);
      } else if (byName == null && byNumber != null && value(b, key(c, byNumber.name())) == null) {
        add("EnumValueNumberReused", new Target(Kind.ENUM_VALUE, null, c.name(), byNumber.name()), "value "
            + byNumber.name() + " of " + what + " has number " + bv.number() + ", which was " + bv.name()
            + " in the baseline " + at(bv.line()) + ": older peers read the one as the other. Keep the old constant"
            + " (deprecate it) and append the new one" + ACCEPT);
      } else if (byName == null && byNumber == null && !c.reserves(bv.number())) {
        add("EnumValueRemoved", new Target(Kind.ENUM, null, c.name(), null), "value " + bv.name() + " (number "
            + bv.number() + ") of " + what + " of the baseline " + at(bv.line()) + " is gone: older peers still send"
            + " it, and it reads as null now; a constant appended later would take its number. Keep the constant"
            + " (deprecate it)" + ACCEPT);
      }
    }
    for (Value cv : c.values()) {
      if (value(b, key(c, cv.name())) == null && b.number(cv.number()) == null && b.reserves(cv.number())) {
        add("EnumValueNumberReused", new Target(Kind.ENUM_VALUE, null, c.name(), cv.name()), "value " + cv.name()
            + " of " + what + " has number " + cv.number() + ", which is reserved in the baseline " + at(b.line())
            + ": older peers may still send it with its old meaning. Give it another number" + ACCEPT);
      }
    }
  }

  /**
   * A value's name without its enum's UPPER_SNAKE prefix ({@code STOCK_STATE_IN_STOCK} → {@code IN_STOCK}):
   * the processor prefixes values with the enum's name, so renaming an enum renames every value.
   */
  private static String key(EnumDef e, String valueName) {
    String simple = e.name().substring(e.name().lastIndexOf('.') + 1);
    String prefix = Names.upperSnake(simple) + "_";
    return valueName.startsWith(prefix) ? valueName.substring(prefix.length()) : valueName;
  }

  private static Value value(EnumDef e, String key) {
    return e.values().stream().filter(v -> key(e, v.name()).equals(key)).findFirst().orElse(null);
  }

  private String removedText(Message c, Field bf) {
    String wrapper = wrapperOf.get(c.name());
    String gone = bf.spelling() + " " + bf.name() + " = " + bf.number() + " of the baseline " + at(bf.line());
    if (wrapper != null && wrapper.startsWith("response:")) {
      return "the result of method " + method(c) + " (" + gone + ") is gone: older clients expect it and read null."
          + " Keep the result type" + ACCEPT;
    }
    if (wrapper != null) {
      return "parameter " + bf.name() + " of method " + method(c) + " (" + gone + ") is gone: older servers read it"
          + " as absent, and a parameter added later would take its number (parameters cannot be reserved). Keep"
          + " the parameter" + ACCEPT;
    }
    return "field " + bf.name() + " of " + describe(c) + " (" + gone + ") is gone: that alone is compatible, but"
        + " a field added later could take number " + bf.number() + " while older peers still send the old one."
        + " Reserve it with @BoltMessage(reserved = " + bf.number() + ")" + ACCEPT;
  }

  private String retypeAdvice(Message c) {
    String wrapper = wrapperOf.getOrDefault(c.name(), "");
    return wrapper.startsWith("response:") ? "Keep the result type and add a new method for the new one"
        : "Keep the type and add a new " + (wrapper.isEmpty() ? "component with a new number" : "parameter at the end")
            + " for the new one";
  }

  private String renumberAdvice(Message c, int number) {
    return wrapperOf.containsKey(c.name())
        ? "Parameters are numbered by position: restore the order and add new parameters at the end"
        : "Pin it with @BoltField(" + number + ") (then every component of the record needs one)";
  }

  private String newNumberAdvice(Message c) {
    return wrapperOf.containsKey(c.name())
        ? "Parameters are numbered by position: keep the old parameters and add new ones at the end"
        : "Give the new component a number never used before with @BoltField";
  }

  /** "field x of message M (a.b.M)", "parameter x of method m", "the result of method m". */
  private String describe(Message c, Field f) {
    String wrapper = wrapperOf.get(c.name());
    if (wrapper == null) {
      return "field " + f.name() + " of " + describe(c);
    }
    return wrapper.startsWith("request:") ? "parameter " + f.name() + " of method " + method(c)
        : "the result of method " + method(c) + " (field " + f.name() + " of " + c.name() + ")";
  }

  private String describe(Message c) {
    String wrapper = wrapperOf.get(c.name());
    if (wrapper != null) {
      return "the " + wrapper.substring(0, wrapper.indexOf(':')) + " of method " + method(c) + " (" + c.name() + ")";
    }
    return "message " + c.name() + (c.javaName() == null ? "" : " (" + c.javaName() + ")");
  }

  private String method(Message c) {
    String wrapper = wrapperOf.get(c.name());
    return wrapper == null ? null : wrapper.substring(wrapper.indexOf(':') + 1);
  }

  private Target field(Message c, Field f) {
    return new Target(Kind.FIELD, method(c), c.name(), f.name());
  }

  private static Set<Integer> oneofPeers(Message m, Field f) {
    Set<Integer> peers = new TreeSet<>();
    if (f.oneof() != null) {
      m.fields().stream().filter(x -> f.oneof().equals(x.oneof()) && x.number() != f.number())
          .forEach(x -> peers.add(x.number()));
    }
    return peers;
  }

  private static Set<Integer> numbers(Message m) {
    Set<Integer> all = new HashSet<>();
    m.fields().forEach(f -> all.add(f.number()));
    return all;
  }

  private static String strip(String type) {
    return type.startsWith(".") ? type.substring(1) : type;
  }

  private String at(int line) {
    return where + ":" + line;
  }

  private void add(String tag, Target target, String message) {
    Break b = new Break(tag, target, message);
    if (!breaks.contains(b)) {
      breaks.add(b);
    }
  }
}
