package io.boltgen.processor;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import java.util.Map;
import java.util.stream.Collectors;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Elements;

/** Reading annotation values, doc comments and type names off elements, for messages and the model. */
final class Annotations {

  private Annotations() {}

  /** {@code java.util.List<java.util.Map<p.Foo,?>>} → {@code List<Map<Foo,?>>}. */
  static String render(TypeMirror t) {
    return render(TypeName.get(t));
  }

  static String render(TypeName t) {
    if (t instanceof ParameterizedTypeName p) {
      return p.rawType().simpleNames().get(p.rawType().simpleNames().size() - 1) + p.typeArguments().stream()
          .map(Annotations::render).collect(Collectors.joining(",", "<", ">"));
    }
    if (t instanceof ClassName c) {
      return String.join(".", c.simpleNames());
    }
    if (t instanceof com.palantir.javapoet.ArrayTypeName a) {
      return render(a.componentType()) + "[]";
    }
    if (t instanceof com.palantir.javapoet.WildcardTypeName w) {
      if (!w.lowerBounds().isEmpty()) {
        return "? super " + render(w.lowerBounds().get(0));
      }
      TypeName upper = w.upperBounds().get(0);
      return upper.equals(ClassName.OBJECT) ? "?" : "? extends " + render(upper);
    }
    return t.toString();
  }

  static String kindName(TypeElement type) {
    switch (type.getKind()) {
      case CLASS:
        return "the class";
      case ENUM:
        return "the enum";
      case RECORD:
        return "the record";
      case ANNOTATION_TYPE:
        return "the annotation type";
      default:
        return type.getKind().toString().toLowerCase(java.util.Locale.ROOT);
    }
  }

  static String doc(Elements elements, Element e) {
    String doc = elements.getDocComment(e);
    if (doc == null || doc.isBlank()) {
      return null;
    }
    // javac keeps the space after each line's '*': drop it, keep deeper indentation
    return doc.lines().map(line -> line.startsWith(" ") ? line.substring(1) : line)
        .collect(Collectors.joining("\n")).strip();
  }

  static AnnotationMirror annotation(Element e, String qualifiedName) {
    for (AnnotationMirror m : e.getAnnotationMirrors()) {
      if (((TypeElement) m.getAnnotationType().asElement()).getQualifiedName().contentEquals(qualifiedName)) {
        return m;
      }
    }
    return null;
  }

  static AnnotationValue valueWithDefault(Elements elements, AnnotationMirror m, String name) {
    return elements.getElementValuesWithDefaults(m).entrySet().stream()
        .filter(x -> x.getKey().getSimpleName().contentEquals(name)).findFirst().orElseThrow().getValue();
  }

  /** The value as written in the source, or {@code null} when it is the default. */
  static AnnotationValue explicitValue(AnnotationMirror m, String name) {
    return m.getElementValues().entrySet().stream()
        .filter(x -> x.getKey().getSimpleName().contentEquals(name)).map(Map.Entry::getValue).findFirst().orElse(null);
  }

  static String stringValue(Elements elements, AnnotationMirror m, String name) {
    return (String) valueWithDefault(elements, m, name).getValue();
  }

  static long longValue(Elements elements, AnnotationMirror m, String name) {
    return ((Number) valueWithDefault(elements, m, name).getValue()).longValue();
  }
}
