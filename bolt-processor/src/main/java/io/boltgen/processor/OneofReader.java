package io.boltgen.processor;

import com.palantir.javapoet.ClassName;
import io.boltgen.processor.Model.Field;
import io.boltgen.processor.Model.MessageKind;
import io.boltgen.processor.Model.MessageType;
import io.boltgen.processor.Model.Site;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Elements;

/**
 * Reads a sealed interface whose permitted subtypes are records into a {@code oneof} message: one field per
 * record, named after it ({@code Circle} → {@code circle}), numbered 1, 2, 3… in the order javac lists the
 * permitted subtypes (the {@code permits} clause, or declaration order when it is implicit) unless every
 * record pins its number with {@code @BoltField}. Part of {@link TypeReader}; the same bookkeeping as
 * records (recursion, one report per type).
 */
final class OneofReader {

  private final TypeReader reader;
  private final Elements elements;
  private final TypeReader.Scope scope;
  private final Map<String, Boolean> checkedTypes;

  OneofReader(TypeReader reader, Elements elements, TypeReader.Scope scope, Map<String, Boolean> checkedTypes) {
    this.reader = reader;
    this.elements = elements;
    this.scope = scope;
    this.checkedTypes = checkedTypes;
  }

  Model.Type read(TypeElement e, Site site, String context, String path) {
    String key = e.getQualifiedName().toString();
    String what = "the sealed interface " + e.getSimpleName();
    if (!e.getTypeParameters().isEmpty()) {
      return reader.unsupported(site, context, path, what + " is generic: a oneof's cases must be concrete records");
    }
    if (!reader.accessible(e)) {
      return reader.unsupported(site, context, path, what + " is not accessible from package " + scope.packageName);
    }
    if (!reader.reachable(e, "sealed interface")) {
      return null;
    }
    MessageType result = new MessageType(ClassName.get(e), reader.messageName(e), true);
    if (scope.messages.containsKey(key)) {
      return result;
    }
    if (Boolean.FALSE.equals(checkedTypes.get("record:" + key))) {
      scope.failed = true; // reported already
      return null;
    }
    List<TypeElement> cases = new ArrayList<>();
    for (TypeMirror permitted : e.getPermittedSubclasses()) {
      TypeElement c = (TypeElement) ((DeclaredType) permitted).asElement();
      if (c.getKind() != ElementKind.RECORD) {
        checkedTypes.put("record:" + key, false);
        return reader.unsupported(site, context, path, what + " permits " + c.getSimpleName()
            + ", which is not a record: every case of a oneof is a record (a " + Annotations.kindName(c)
            + " has no generated codec)");
      }
      cases.add(c);
    }
    scope.usesDeprecated |= elements.isDeprecated(e);
    scope.messages.put(key, null); // placeholder: a case may hold the interface again
    boolean before = scope.failed;
    scope.failed = false;
    List<Field> fields = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (TypeElement c : cases) {
      Model.Type t = reader.recordType(c, Site.of(c), "case " + c.getSimpleName() + " of " + what,
          c.getSimpleName().toString());
      AnnotationMirror pin = Annotations.annotation(c, Names.BOLT_FIELD);
      int number = pin == null ? 0 : (int) Annotations.longValue(elements, pin, "value");
      String simple = c.getSimpleName().toString();
      String name = Names.unique(Character.toLowerCase(simple.charAt(0)) + simple.substring(1), names);
      names.add(name);
      fields.add(new Field(name, number, t, new Site(c, pin, null)));
    }
    TypeReader.numberImplicitly(fields);
    boolean ok = !scope.failed;
    scope.failed = before || scope.failed;
    checkedTypes.put("record:" + key, ok);
    if (!ok) {
      scope.messages.remove(key);
      return null;
    }
    AnnotationMirror message = Annotations.annotation(e, Names.BOLT_MESSAGE);
    List<Integer> reserved = reader.reserved(message);
    scope.messages.put(key, new Model.Message(MessageKind.ONEOF, result.protoName(), result.className(),
        List.copyOf(fields), List.copyOf(reserved), Annotations.doc(elements, e), new Site(e, message, null)));
    return result;
  }
}
