package io.boltgen.hessian;

import java.util.ArrayList;
import java.util.List;

/**
 * The class definitions and the list and map type names one stream of a {@link HessianReader} declared, which
 * later values refer to by index: read and counted within {@link HessianReader#MAX_CLASS_DEFINITIONS},
 * {@link HessianReader#MAX_FIELDS} and {@link HessianReader#MAX_TYPES}.
 */
final class HessianDefinitions {

  private final HessianSource src;
  private final List<HessianClass> classes = new ArrayList<>();
  private final List<String> types = new ArrayList<>();

  HessianDefinitions(HessianSource src) {
    this.src = src;
  }

  /** {@code int(nameLength) nameChars int(fieldCount) string*}, after {@code 'O'}. */
  void readDefinition() {
    if (classes.size() >= HessianReader.MAX_CLASS_DEFINITIONS) {
      throw new HessianException("more than " + HessianReader.MAX_CLASS_DEFINITIONS
          + " class definitions in one stream");
    }
    StringBuilder name = new StringBuilder();
    src.chars(src.compactInt("the length of a class name"), name);
    int count = src.compactInt("the field count of a class definition");
    if (count < 0 || count > HessianReader.MAX_FIELDS) {
      throw new HessianException("a class definition of " + count + " fields (at most " + HessianReader.MAX_FIELDS
          + ")");
    }
    src.count(count, "a class definition");
    String[] fields = new String[count];
    for (int i = 0; i < count; i++) {
      int tag = src.tag();
      if (!HessianSource.isString(tag)) {
        throw HessianReader.unexpected("a field name", tag);
      }
      StringBuilder field = new StringBuilder();
      src.stringBody(tag, field);
      fields[i] = field.toString();
    }
    classes.add(HessianClass.received(name.toString(), fields));
  }

  /** The definition of the instance whose {@code 'o'} was read. */
  HessianClass instanceClass() {
    int index = src.compactInt("the class of an instance");
    if (index < 0 || index >= classes.size()) {
      throw new HessianException("an instance of class definition " + index + " of " + classes.size());
    }
    return classes.get(index);
  }

  /** An optional type after {@code 'V'} or {@code 'M'}: {@code 't' u16 chars}, or {@code 'u' int(ref)}. */
  void readType() {
    int next = src.peek();
    if (next == 't') {
      src.tag();
      if (types.size() >= HessianReader.MAX_TYPES) {
        throw new HessianException("more than " + HessianReader.MAX_TYPES + " types in one stream");
      }
      StringBuilder type = new StringBuilder();
      src.chars(src.u16(), type);
      types.add(type.toString());
    } else if (next == 0x75) {
      src.tag();
      typeRef(src.compactInt("a type reference"), "a reference to type ");
    }
  }

  /** Checks that {@code ref} is a type name read before; {@code what} starts the message if not. */
  void typeRef(int ref, String what) {
    if (ref < 0 || ref >= types.size()) {
      throw new HessianException(what + ref + " of " + types.size());
    }
  }
}
