package io.boltgen.processor;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;

/**
 * The numbers of an enum's constants: their ordinals, or all pinned by {@code @BoltEnumValue}. Pinned
 * numbers are checked here, each problem reported on its constant: all-or-nothing, unique, and one
 * constant numbered 0 (proto3's default value).
 */
final class EnumNumbers {

  /** The constants in declaration order, their numbers, and whether the numbers are pinned. */
  record Numbers(List<String> constants, List<Integer> numbers, boolean pinned) {}

  private EnumNumbers() {}

  /** The numbers of {@code e}'s constants, or {@code null} after reporting why they are invalid. */
  static Numbers read(Elements elements, Report report, TypeElement e) {
    List<Element> constants = new ArrayList<>();
    for (Element x : e.getEnclosedElements()) {
      if (x.getKind() == ElementKind.ENUM_CONSTANT) {
        constants.add(x);
      }
    }
    List<String> names = new ArrayList<>();
    List<Integer> numbers = new ArrayList<>();
    Element pinnedOne = null;
    for (Element c : constants) {
      names.add(c.getSimpleName().toString());
      if (pinnedOne == null && Annotations.annotation(c, Names.BOLT_ENUM_VALUE) != null) {
        pinnedOne = c;
      }
    }
    if (pinnedOne == null) {
      for (int i = 0; i < constants.size(); i++) {
        numbers.add(i);
      }
      return new Numbers(List.copyOf(names), List.copyOf(numbers), false);
    }
    int before = report.errorCount();
    Map<Integer, Element> byNumber = new HashMap<>();
    for (Element c : constants) {
      AnnotationMirror pin = Annotations.annotation(c, Names.BOLT_ENUM_VALUE);
      if (pin == null) {
        report.error(c, "MissingEnumNumber", "enum numbers are all-or-nothing: " + pinnedOne.getSimpleName()
            + " of " + e.getSimpleName() + " sets @BoltEnumValue, so " + c.getSimpleName() + " needs one too");
        continue;
      }
      int number = (int) Annotations.longValue(elements, pin, "value");
      numbers.add(number);
      Element same = byNumber.putIfAbsent(number, c);
      if (same != null) {
        report.error(new Model.Site(c, pin, null), "DuplicateEnumNumber", "enum number " + number + " of "
            + c.getSimpleName() + " is also the number of " + same.getSimpleName() + " in " + e.getSimpleName());
      }
    }
    if (report.errorCount() == before && !byNumber.containsKey(0)) {
      report.error(e, "InvalidEnum", "no constant of the enum " + e.getSimpleName()
          + " has @BoltEnumValue(0): a proto3 enum needs a zero value, what an absent field means to other peers");
    }
    if (report.errorCount() > before) {
      return null;
    }
    return new Numbers(List.copyOf(names), List.copyOf(numbers), true);
  }
}
