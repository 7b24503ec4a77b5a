package io.boltgen.hessian;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The untyped half of {@link HessianReader}: {@link HessianReader#readValue} and
 * {@link HessianReader#skipValue} of any value, given its first tag (after class definitions). Recursive,
 * within {@link HessianReader#MAX_DEPTH}.
 */
final class HessianValues {

  private HessianValues() {}

  /** The value whose tag was read, as plain Java. */
  static Object read(HessianReader r, int tag) {
    HessianSource src = r.source();
    if (tag == 'N') {
      return null;
    } else if (tag == 'T' || tag == 'F') {
      return tag == 'T';
    } else if (HessianSource.isInt(tag)) {
      return src.intBody(tag);
    } else if (HessianSource.isLong(tag)) {
      return src.longBody(tag);
    } else if (HessianSource.isDouble(tag)) {
      return src.doubleBody(tag);
    } else if (tag == 'd') {
      return src.i64();
    } else if (HessianSource.isString(tag)) {
      StringBuilder sb = new StringBuilder();
      src.stringBody(tag, sb);
      return sb.toString();
    } else if (HessianSource.isBytes(tag)) {
      return src.bytesBody(tag, true);
    } else if (HessianSource.isRef(tag)) {
      return r.resolvePlain(tag);
    } else if (tag == 'V' || tag == 'v') {
      int length = r.listStart(tag);
      int ref = r.reservePlain();
      r.enter();
      List<Object> list = new ArrayList<>(Math.min(Math.max(length, 0), src.readable()));
      while (r.more(tag, list.size(), length)) {
        list.add(r.readValue());
      }
      r.exit();
      r.complete(ref, list);
      return list;
    } else if (tag == 'M') {
      r.definitions().readType();
      int ref = r.reservePlain();
      r.enter();
      Map<Object, Object> map = new LinkedHashMap<>();
      while (r.more(tag, 0, -1)) {
        Object key = r.readValue();
        map.put(key, r.readValue());
      }
      r.exit();
      r.complete(ref, map);
      return map;
    } else if (tag == 'o') {
      HessianClass sent = r.definitions().instanceClass();
      int ref = r.reservePlain();
      r.enter();
      Map<String, Object> fields = new LinkedHashMap<>();
      for (int i = 0; i < sent.fieldCount(); i++) {
        fields.put(sent.fieldName(i), r.readValue());
      }
      r.exit();
      HessianReader.Instance instance = new HessianReader.Instance(sent.className(), fields);
      r.complete(ref, instance);
      return instance;
    }
    throw HessianReader.unexpected("a value", tag);
  }

  /** Skips the value whose tag was read; its objects, lists and maps take reference numbers. */
  static void skip(HessianReader r, int tag) {
    HessianSource src = r.source();
    if (tag == 'N' || tag == 'T' || tag == 'F') {
      return;
    } else if (HessianSource.isInt(tag)) {
      src.intBody(tag);
    } else if (HessianSource.isLong(tag)) {
      src.longBody(tag);
    } else if (HessianSource.isDouble(tag)) {
      src.doubleBody(tag);
    } else if (tag == 'd') {
      src.skip(8);
    } else if (HessianSource.isString(tag)) {
      src.stringBody(tag, null);
    } else if (HessianSource.isBytes(tag)) {
      src.bytesBody(tag, false);
    } else if (HessianSource.isRef(tag)) {
      r.refIndex(tag);
    } else if (tag == 'V' || tag == 'v') {
      int length = r.listStart(tag);
      r.reserveSkipped();
      r.enter();
      for (int read = 0; r.more(tag, read, length); read++) {
        r.skipValue();
      }
      r.exit();
    } else if (tag == 'M') {
      r.definitions().readType();
      r.reserveSkipped();
      r.enter();
      while (r.more(tag, 0, -1)) {
        r.skipValue();
        r.skipValue();
      }
      r.exit();
    } else if (tag == 'o') {
      HessianClass sent = r.definitions().instanceClass();
      r.reserveSkipped();
      r.enter();
      for (int i = 0; i < sent.fieldCount(); i++) {
        r.skipValue();
      }
      r.exit();
    } else {
      throw HessianReader.unexpected("a value", tag);
    }
  }

  /** {@link HessianReader#readDate}. */
  static Long readDate(HessianReader r) {
    HessianSource src = r.source();
    int tag = src.tag();
    if (tag == 'N') {
      return null;
    }
    if (tag != 'd') {
      throw HessianReader.unexpected("a date", tag);
    }
    return src.i64();
  }

  /** {@link HessianReader#nextObjectClassName}. */
  static String nextObjectClassName(HessianReader r, HessianSource src) {
    while (src.peek() == 'O') {
      src.tag();
      r.definitions().readDefinition();
    }
    if (src.peek() != 'o') {
      return null;
    }
    int start = src.position();
    src.tag();
    String className = r.definitions().instanceClass().className();
    src.position(start);
    return className;
  }
}
