package io.boltgen.processor;

import com.palantir.javapoet.ClassName;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * Reads the fields of a declared exception of a Hessian2 service, which travel as sofa-hessian writes a
 * Throwable: {@code detailMessage}, then every instance field of the exception's own classes (those below the
 * JDK's), by name. A field is read through a public accessor ({@code code()}, {@code getCode()}, {@code isX()}
 * for a boolean) or is public itself; the exception is rebuilt through a public constructor
 * {@code (String message, <each field in order>)}, else through its {@code (String)} constructor and a public
 * setter per field. A field of another type, or one that cannot be read or set, is a compile error naming it.
 */
final class SofaRpcExceptions {

  /** Throwable's fields as sofa-hessian writes them: an exception's own field must not take their names. */
  private static final Set<String> THROWABLE_FIELDS =
      Set.of("detailMessage", "cause", "stackTrace", "suppressedExceptions");

  private final Elements elements;
  private final Types types;
  private final Report report;

  SofaRpcExceptions(Elements elements, Types types, Report report) {
    this.elements = elements;
    this.types = types;
    this.report = report;
  }

  /** One field of a declared exception: its name, its type, how it is read and how it is set. */
  record ExceptionField(String name, Model.Type type, String getter, String setter) {}

  /**
   * A declared exception as a Hessian2 service carries it.
   *
   * @param fields its own fields, superclass fields first, each class's in declaration order
   * @param viaSetters rebuilt with its {@code (String)} constructor and a setter per field, rather than the
   *     constructor {@code (String message, <fields>)}
   */
  record ExceptionForm(ClassName className, List<ExceptionField> fields, boolean viaSetters) {
    /** An exception without fields of its own: its message alone. */
    static ExceptionForm messageOnly(ClassName className) {
      return new ExceptionForm(className, List.of(), false);
    }
  }

  /** The form of {@code className}, or {@code null} when a field breaks a rule (then reported at {@code site}). */
  ExceptionForm read(ClassName className, Model.Site site) {
    TypeElement type = elements.getTypeElement(className.canonicalName());
    if (type == null) {
      return ExceptionForm.messageOnly(className);
    }
    List<VariableElement> own = ownFields(type);
    if (own.isEmpty()) {
      return ExceptionForm.messageOnly(className);
    }
    String name = className.simpleName();
    List<ExceptionField> fields = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    for (VariableElement f : own) {
      String fieldName = f.getSimpleName().toString();
      Model.Type t = fieldType(f.asType());
      if (THROWABLE_FIELDS.contains(fieldName)) {
        problems.add("field " + fieldName + " has the name of one of Throwable's, which sofa-hessian writes too");
      } else if (t == null) {
        problems.add("field " + fieldName + " is " + f.asType() + "; an exception's fields may be primitives, their"
            + " boxes and String");
      } else {
        String getter = getter(type, f);
        if (getter == null) {
          problems.add("field " + fieldName + " cannot be read: add a public " + fieldName + "() or "
              + accessorName(f, TypeKind.BOOLEAN == f.asType().getKind() ? "is" : "get") + "()");
        }
        fields.add(new ExceptionField(fieldName, t, getter, setter(type, f)));
      }
    }
    boolean viaConstructor = problems.isEmpty() && hasFieldConstructor(type, own);
    if (problems.isEmpty() && !viaConstructor && fields.stream().anyMatch(f -> f.setter() == null)) {
      problems.add("it cannot be rebuilt with its fields: add a public constructor (String message, "
          + own.stream().map(f -> f.asType() + " " + f.getSimpleName()).collect(Collectors.joining(", "))
          + "), or a public setter for each field");
    }
    if (!problems.isEmpty()) {
      report.error(site, "UnmappableException", "the declared exception " + name + " carries its fields to and from"
          + " SOFARPC's Hessian2 peers, but " + String.join("; ", problems));
      return null;
    }
    return new ExceptionForm(className, List.copyOf(fields), !viaConstructor);
  }

  /** The instance fields of {@code type} and its superclasses below the JDK's, superclass fields first. */
  private List<VariableElement> ownFields(TypeElement type) {
    Deque<TypeElement> chain = new ArrayDeque<>();
    TypeElement e = type;
    while (e != null && !elements.getPackageOf(e).getQualifiedName().toString().startsWith("java.")) {
      chain.push(e);
      e = e.getSuperclass() instanceof DeclaredType parent ? (TypeElement) parent.asElement() : null;
    }
    List<VariableElement> fields = new ArrayList<>();
    for (TypeElement c : chain) {
      for (VariableElement f : ElementFilter.fieldsIn(c.getEnclosedElements())) {
        Set<Modifier> mods = f.getModifiers();
        if (!mods.contains(Modifier.STATIC) && !mods.contains(Modifier.TRANSIENT)) {
          fields.add(f);
        }
      }
    }
    return fields;
  }

  /** A primitive, a box or String as a model type; {@code null} for any other. */
  private Model.Type fieldType(TypeMirror t) {
    if (t.getKind().isPrimitive()) {
      return new Model.ScalarType(Model.Scalar.valueOf(t.getKind().name()), false);
    }
    if (t.getKind() != TypeKind.DECLARED) {
      return null;
    }
    String name = ((TypeElement) ((DeclaredType) t).asElement()).getQualifiedName().toString();
    if (name.equals("java.lang.String")) {
      return new Model.StringType();
    }
    try {
      TypeMirror unboxed = types.unboxedType(t);
      return new Model.ScalarType(Model.Scalar.valueOf(unboxed.getKind().name()), true);
    } catch (IllegalArgumentException notABox) {
      return null;
    }
  }

  /** How generated code reads {@code f}: {@code "code()"}, {@code "getCode()"}, or {@code "code"} when public. */
  private String getter(TypeElement type, VariableElement f) {
    String name = f.getSimpleName().toString();
    List<String> candidates = List.of(name, accessorName(f, "get"), accessorName(f, "is"));
    for (ExecutableElement m : ElementFilter.methodsIn(elements.getAllMembers(type))) {
      String method = m.getSimpleName().toString();
      boolean isPrefix = method.equals(accessorName(f, "is"));
      if (candidates.contains(method) && m.getModifiers().contains(Modifier.PUBLIC)
          && !m.getModifiers().contains(Modifier.STATIC) && m.getParameters().isEmpty()
          && types.isSameType(m.getReturnType(), f.asType())
          && (!isPrefix || f.asType().getKind() == TypeKind.BOOLEAN)) {
        return method + "()";
      }
    }
    return f.getModifiers().contains(Modifier.PUBLIC) ? name : null;
  }

  /** The public {@code setX(T)} of {@code f}, or {@code null}. */
  private String setter(TypeElement type, VariableElement f) {
    String setter = accessorName(f, "set");
    for (ExecutableElement m : ElementFilter.methodsIn(elements.getAllMembers(type))) {
      if (m.getSimpleName().contentEquals(setter) && m.getModifiers().contains(Modifier.PUBLIC)
          && !m.getModifiers().contains(Modifier.STATIC) && m.getParameters().size() == 1
          && types.isSameType(m.getParameters().get(0).asType(), f.asType())) {
        return setter;
      }
    }
    return null;
  }

  /** Whether {@code type} has a public constructor {@code (String, <types of fields>)}. */
  private boolean hasFieldConstructor(TypeElement type, List<VariableElement> fields) {
    for (ExecutableElement c : ElementFilter.constructorsIn(type.getEnclosedElements())) {
      List<? extends VariableElement> params = c.getParameters();
      if (!c.getModifiers().contains(Modifier.PUBLIC) || params.size() != fields.size() + 1
          || !TypeReader.isType(params.get(0).asType(), "java.lang.String")) {
        continue;
      }
      boolean match = true;
      for (int i = 0; i < fields.size() && match; i++) {
        match = types.isSameType(params.get(i + 1).asType(), fields.get(i).asType());
      }
      if (match) {
        return true;
      }
    }
    return false;
  }

  private static String accessorName(VariableElement f, String prefix) {
    return prefix + Names.capitalize(f.getSimpleName().toString());
  }
}
