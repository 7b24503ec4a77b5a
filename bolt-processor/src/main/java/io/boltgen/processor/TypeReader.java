package io.boltgen.processor;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.TypeName;
import io.boltgen.processor.Model.BytesType;
import io.boltgen.processor.Model.EnumType;
import io.boltgen.processor.Model.Field;
import io.boltgen.processor.Model.JdkType;
import io.boltgen.processor.Model.MapType;
import io.boltgen.processor.Model.MessageKind;
import io.boltgen.processor.Model.MessageType;
import io.boltgen.processor.Model.OptionalType;
import io.boltgen.processor.Model.ProtoMessageType;
import io.boltgen.processor.Model.RepeatedType;
import io.boltgen.processor.Model.Scalar;
import io.boltgen.processor.Model.ScalarType;
import io.boltgen.processor.Model.Site;
import io.boltgen.processor.Model.StringType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.RecordComponentElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * Maps the Java types of one service's parameters, results and record components to the model's wire
 * types ({@link Model.Type}), collecting the messages and enums they need into the service's {@link Scope}. Types
 * that cannot be serialized are reported on the element that uses them.
 */
final class TypeReader {

  /** Names a record component may not have (JLS 8.10.1). */
  static final Set<String> RECORD_FORBIDDEN =
      Set.of("clone", "finalize", "getClass", "hashCode", "notify", "notifyAll", "toString", "wait");

  /** What reading one service has found so far. Not thread-safe; one per service read. */
  static final class Scope {
    final String packageName;
    final Map<String, Model.Message> messages = new LinkedHashMap<>();
    final Map<String, Model.Enumeration> enums = new LinkedHashMap<>();
    /** The names of the messages generated for the methods' arguments and results. */
    final Set<String> wrapperNames = new HashSet<>();
    boolean usesDeprecated;
    boolean failed;

    Scope(String packageName) {
      this.packageName = packageName;
    }
  }

  private final Elements elements;
  private final Types types;
  private final Report report;
  private final TypeElement protobufMessage;
  /** Records and enums already read in this round, so a bad one is reported once: name → ok. */
  private final Map<String, Boolean> checkedTypes;
  private final Scope scope;
  private final SourceFiles sourceFiles;
  private final ProtoDescriptors protoDescriptors;

  TypeReader(Elements elements, Types types, Report report, Map<String, Boolean> checkedTypes, Scope scope,
      SourceFiles sourceFiles, ProtoDescriptors protoDescriptors) {
    this.sourceFiles = sourceFiles;
    this.protoDescriptors = protoDescriptors;
    this.elements = elements;
    this.types = types;
    this.report = report;
    this.checkedTypes = checkedTypes;
    this.scope = scope;
    this.protobufMessage = elements.getTypeElement("com.google.protobuf.Message");
  }

  /**
   * The model of {@code t}, or {@code null} after reporting on {@code site} why it cannot be serialized.
   * {@code path} is the whole declared type, rendered with simple names.
   */
  Model.Type type(TypeMirror t, Site site, String context, String path) {
    String problem;
    switch (t.getKind()) {
      case ERROR:
        throw new ModelReader.Unresolved(t.toString());
      case BOOLEAN:
        return new ScalarType(Scalar.BOOLEAN, false);
      case BYTE:
        return new ScalarType(Scalar.BYTE, false);
      case SHORT:
        return new ScalarType(Scalar.SHORT, false);
      case CHAR:
        return new ScalarType(Scalar.CHAR, false);
      case INT:
        return new ScalarType(Scalar.INT, false);
      case LONG:
        return new ScalarType(Scalar.LONG, false);
      case FLOAT:
        return new ScalarType(Scalar.FLOAT, false);
      case DOUBLE:
        return new ScalarType(Scalar.DOUBLE, false);
      case ARRAY:
        return array((ArrayType) t, site, context, path);
      case DECLARED:
        return declared((DeclaredType) t, site, context, path);
      case TYPEVAR:
        problem = "the type variable " + t + " is not serializable; use a concrete type";
        break;
      case WILDCARD:
        problem = "the wildcard " + t + " is not serializable; use a concrete type";
        break;
      default:
        problem = t + " is not serializable";
    }
    return unsupported(site, context, path, problem);
  }

  /** {@code byte[]}: bytes; any other array: a repeated field of its component. */
  private Model.Type array(ArrayType t, Site site, String context, String path) {
    TypeMirror component = t.getComponentType();
    if (component.getKind() == TypeKind.BYTE) {
      return new BytesType();
    }
    Model.Type element = type(component, site, context, path);
    if (element == null) {
      return null;
    }
    if (element instanceof OptionalType) {
      return unsupported(site, context, path, "array components cannot be " + Annotations.render(component)
          + ": an element is there or not; use its value");
    }
    return new RepeatedType(NestedCollections.wrap(element, site, scope), false, TypeName.get(t));
  }

  Model.Type unsupported(Site site, String context, String path, String problem) {
    report.error(site, "UnsupportedType", "cannot serialize " + path + " (" + context + "): " + problem);
    scope.failed = true;
    return null;
  }

  private Model.Type declared(DeclaredType t, Site site, String context, String path) {
    TypeElement e = (TypeElement) t.asElement();
    String name = e.getQualifiedName().toString();
    List<? extends TypeMirror> args = t.getTypeArguments();
    switch (name) {
      case "java.lang.Boolean":
        return new ScalarType(Scalar.BOOLEAN, true);
      case "java.lang.Byte":
        return new ScalarType(Scalar.BYTE, true);
      case "java.lang.Short":
        return new ScalarType(Scalar.SHORT, true);
      case "java.lang.Character":
        return new ScalarType(Scalar.CHAR, true);
      case "java.lang.Integer":
        return new ScalarType(Scalar.INT, true);
      case "java.lang.Long":
        return new ScalarType(Scalar.LONG, true);
      case "java.lang.Float":
        return new ScalarType(Scalar.FLOAT, true);
      case "java.lang.Double":
        return new ScalarType(Scalar.DOUBLE, true);
      case "java.lang.String":
        return new StringType();
      case "java.time.Instant":
      case "java.time.Duration":
      case "java.math.BigDecimal":
      case "java.math.BigInteger":
      case "java.util.UUID":
      case "java.time.LocalDate":
      case "java.time.LocalTime":
      case "java.time.LocalDateTime":
      case "java.net.URI":
      case "java.util.Date":
      case "java.sql.Timestamp":
        return new JdkType(Model.Jdk.of(name));
      case "java.util.List":
      case "java.util.Set": {
        String simple = e.getSimpleName().toString();
        if (args.isEmpty()) {
          return unsupported(site, context, path, "raw " + simple + ": declare its element type");
        }
        Model.Type element = type(args.get(0), site, context, path);
        if (element == null) {
          return null;
        }
        if (element instanceof OptionalType) {
          return unsupported(site, context, path, simple + " elements cannot be " + Annotations.render(args.get(0))
              + ": an element is there or not; use its value");
        }
        return new RepeatedType(NestedCollections.wrap(element, site, scope), name.equals("java.util.Set"),
            TypeName.get(t));
      }
      case "java.util.Map": {
        if (args.isEmpty()) {
          return unsupported(site, context, path, "raw Map: declare its key and value types");
        }
        Model.Type key = type(args.get(0), site, context, path);
        if (key == null) {
          return null;
        }
        boolean keyOk = key instanceof StringType
            || (key instanceof ScalarType s && s.scalar() != Scalar.FLOAT && s.scalar() != Scalar.DOUBLE)
            || (key instanceof JdkType j && !j.jdk().message());
        if (!keyOk) {
          return unsupported(site, context, path, "the Map key " + Annotations.render(args.get(0))
              + " is not an integral type, Boolean, String or a type carried as a string (protobuf map keys)");
        }
        Model.Type value = type(args.get(1), site, context, path);
        if (value == null) {
          return null;
        }
        if (value instanceof OptionalType) {
          return unsupported(site, context, path, "Map values cannot be " + Annotations.render(args.get(1))
              + ": an entry is there or not; use its value");
        }
        return new MapType(key, NestedCollections.wrap(value, site, scope), TypeName.get(t));
      }
      case "java.util.Optional": {
        if (args.isEmpty()) {
          return unsupported(site, context, path, "raw Optional: declare its value type");
        }
        Model.Type value = type(args.get(0), site, context, path);
        if (value == null) {
          return null;
        }
        if (value instanceof RepeatedType || value instanceof MapType || value instanceof OptionalType) {
          return unsupported(site, context, path, "Optional cannot hold " + Annotations.render(args.get(0))
              + ": an absent collection is already empty");
        }
        if (value instanceof ScalarType s && !s.boxed()) {
          return unsupported(site, context, path, "Optional of a primitive");
        }
        return new OptionalType(value, TypeName.get(t));
      }
      default:
        break;
    }
    if (e.getKind() == ElementKind.ENUM) {
      return enumType(e, site, context, path);
    }
    if (e.getKind() == ElementKind.RECORD) {
      return recordType(e, site, context, path);
    }
    if (e.getKind() == ElementKind.INTERFACE && e.getModifiers().contains(Modifier.SEALED)) {
      return new OneofReader(this, elements, scope, checkedTypes).read(e, site, context, path);
    }
    if (protobufMessage != null && types.isSubtype(types.erasure(t), types.erasure(protobufMessage.asType()))) {
      if (e.getKind() != ElementKind.CLASS || e.getModifiers().contains(Modifier.ABSTRACT)) {
        return unsupported(site, context, path, e.getSimpleName()
            + " is not a concrete generated protobuf message class (it needs a static parser())");
      }
      if (!accessible(e)) {
        return unsupported(site, context, path, e.getSimpleName() + " is not accessible from package " + scope.packageName);
      }
      String file = WellKnownTypes.file(name);
      if (file != null) {
        return new ProtoMessageType(ClassName.get(e), WellKnownTypes.protoName(name), file, 0);
      }
      ProtoDescriptors.Result read = protoDescriptors.of(e);
      if (read.identity() == null) {
        // one error per message class, on the first element that uses it
        if (checkedTypes.put("proto:" + name, false) == null) {
          report.error(site, "ProtoDescriptorUnreadable", "cannot type " + path + " (" + context + ") in the .proto: "
              + read.problem());
        }
        scope.failed = true;
        return null;
      }
      return new ProtoMessageType(ClassName.get(e), "." + read.identity().fullName(), read.identity().file(),
          read.identity().defaultTag());
    }
    String problem;
    if (name.equals("java.lang.Object")) {
      problem = "Object is not serializable; use a concrete type";
    } else if (e.getKind() == ElementKind.INTERFACE) {
      problem = "the interface " + e.getSimpleName()
          + " is not serializable (only List, Set, Map, Optional and sealed interfaces of records are)";
    } else {
      problem = e.getSimpleName() + " is not serializable: use primitives and their boxes, String, byte[], enums,"
          + " records, List, Set, Map, Optional, protobuf messages or the JDK value types Instant, Duration,"
          + " BigDecimal, BigInteger, UUID, LocalDate, LocalTime, LocalDateTime, URI, java.util.Date and"
          + " java.sql.Timestamp";
    }
    return unsupported(site, context, path, problem);
  }

  private Model.Type enumType(TypeElement e, Site site, String context, String path) {
    String key = e.getQualifiedName().toString();
    String protoName = messageName(e);
    if (!accessible(e)) {
      return unsupported(site, context, path, "the enum " + e.getSimpleName() + " is not accessible from package "
          + scope.packageName);
    }
    if (!reachable(e, "enum")) {
      return null;
    }
    scope.usesDeprecated |= elements.isDeprecated(e);
    Model.Enumeration known = scope.enums.get(key);
    if (known == null) {
      if (checkedTypes.containsKey("enum:" + key) && !checkedTypes.get("enum:" + key)) {
        scope.failed = true; // reported already, by the service that met it first
        return null;
      }
      if (e.getEnclosedElements().stream().noneMatch(x -> x.getKind() == ElementKind.ENUM_CONSTANT)) {
        checkedTypes.put("enum:" + key, false);
        report.error(e, "InvalidEnum", "the enum " + e.getSimpleName()
            + " has no constants: a proto3 enum needs a first (zero) value");
        scope.failed = true;
        return null;
      }
      EnumNumbers.Numbers numbers = EnumNumbers.read(elements, report, e);
      checkedTypes.put("enum:" + key, numbers != null);
      if (numbers == null) {
        scope.failed = true;
        return null;
      }
      known = new Model.Enumeration(protoName, ClassName.get(e), numbers.constants(), numbers.numbers(), numbers.pinned(),
          Annotations.doc(elements, e), Site.of(e));
      scope.enums.put(key, known);
    }
    return new EnumType(ClassName.get(e), protoName, known.pinned());
  }

  Model.Type recordType(TypeElement e, Site site, String context, String path) {
    String key = e.getQualifiedName().toString();
    if (!e.getTypeParameters().isEmpty()) {
      return unsupported(site, context, path, "the generic record " + e.getSimpleName()
          + " is not supported: records used as messages must not have type parameters");
    }
    if (!accessible(e)) {
      return unsupported(site, context, path, "the record " + e.getSimpleName() + " is not accessible from package "
          + scope.packageName);
    }
    if (!reachable(e, "record")) {
      return null;
    }
    ClassName className = ClassName.get(e);
    String protoName = messageName(e);
    MessageType result = new MessageType(className, protoName, false);
    if (scope.messages.containsKey(key)) {
      return result;
    }
    Boolean known = checkedTypes.get("record:" + key);
    if (Boolean.FALSE.equals(known)) {
      scope.failed = true; // reported already, by the service that met it first
      return null;
    }
    AnnotationMirror casePin = Annotations.annotation(e, Names.BOLT_FIELD);
    if (casePin != null && e.getInterfaces().stream().noneMatch(
        i -> types.asElement(i).getModifiers().contains(Modifier.SEALED))) {
      checkedTypes.put("record:" + key, false);
      report.error(new Site(e, casePin, null), "InvalidFieldNumber", "@BoltField on a record pins its case number in"
          + " the oneof of a sealed interface it implements, but " + e.getSimpleName() + " implements none; remove it");
      scope.failed = true;
      return null;
    }
    scope.usesDeprecated |= elements.isDeprecated(e);
    // placeholder first: records may be recursive
    scope.messages.put(key, null);
    AnnotationMirror message = Annotations.annotation(e, Names.BOLT_MESSAGE);
    List<Integer> reserved = reserved(message);
    boolean before = scope.failed;
    scope.failed = false;
    List<Field> fields = new ArrayList<>();
    List<? extends RecordComponentElement> components = e.getRecordComponents();
    for (int i = 0; i < components.size(); i++) {
      RecordComponentElement c = components.get(i);
      AnnotationMirror fieldAnnotation = Annotations.annotation(c, Names.BOLT_FIELD);
      int number = fieldAnnotation == null ? 0 : (int) Annotations.longValue(elements, fieldAnnotation, "value");
      // javac gives record components no source position: report on the component's field, which has it
      Element at = ElementFilter.fieldsIn(e.getEnclosedElements()).stream()
          .filter(x -> x.getSimpleName().contentEquals(c.getSimpleName())).findFirst().map(x -> (Element) x).orElse(c);
      Site fieldSite = new Site(at, fieldAnnotation, null);
      TypeMirror ct = c.asType();
      String where = "component " + c.getSimpleName() + " of record " + e.getSimpleName();
      Model.Type t = scalarDeclared(c, at, type(ct, Site.of(at), where, Annotations.render(ct)), where);
      // no accessor when javac refused the record (a component named wait, notify…): javac reports that
      scope.usesDeprecated |= c.getAccessor() != null && elements.isDeprecated(c.getAccessor());
      fields.add(new Field(c.getSimpleName().toString(), number, t, fieldSite));
    }
    numberImplicitly(fields);
    boolean ok = !scope.failed;
    scope.failed = before || scope.failed;
    checkedTypes.put("record:" + key, ok);
    if (!ok) {
      scope.messages.remove(key);
      return null;
    }
    scope.messages.put(key, new Model.Message(MessageKind.RECORD, protoName, className, List.copyOf(fields),
        List.copyOf(reserved), Annotations.doc(elements, e), new Site(e, message, null)));
    return result;
  }

  /**
   * The proto name: {@code @BoltMessage(name)}, else the simple names joined by '_', with a '_' appended
   * while that is the name of a method's generated message (so that a gRPC-style {@code PlaceRequest} record
   * becomes {@code PlaceRequest_} beside the request message {@code PlaceRequest} of {@code place()}).
   */
  String messageName(TypeElement e) {
    AnnotationMirror message = Annotations.annotation(e, Names.BOLT_MESSAGE);
    if (message != null) {
      String name = Annotations.stringValue(elements, message, "name");
      if (!name.isEmpty()) {
        return name;
      }
    }
    return Names.unique(String.join("_", ClassName.get(e).simpleNames()), scope.wrapperNames);
  }

  // ------------------------------------------------------------------ helpers

  /**
   * {@code t}, the type read for {@code element} (a record component or a parameter), with the protobuf scalar
   * types its {@code @BoltScalar} names ({@link ScalarDeclarations}); {@code null} after an error.
   */
  Model.Type scalarDeclared(Element element, Element at, Model.Type t, String context) {
    return new ScalarDeclarations(elements, report, () -> scope.failed = true).apply(element, at, t, context);
  }

  /** The numbers {@code @BoltMessage(reserved)} lists ({@code message} may be null: none). */
  List<Integer> reserved(AnnotationMirror message) {
    List<Integer> reserved = new ArrayList<>();
    if (message != null) {
      for (Object o : (List<?>) Annotations.valueWithDefault(elements, message, "reserved").getValue()) {
        reserved.add((Integer) ((AnnotationValue) o).getValue());
      }
    }
    return reserved;
  }

  /** Numbers {@code fields} 1, 2, 3… in their order when none was pinned (all numbers 0). */
  static void numberImplicitly(List<Field> fields) {
    if (fields.stream().allMatch(f -> f.number() == 0)) {
      for (int i = 0; i < fields.size(); i++) {
        Field f = fields.get(i);
        fields.set(i, new Field(f.name(), i + 1, f.type(), f.site()));
      }
    }
  }

  /**
   * Whether generated code can use {@code e} without a javac warning; if not, reports it once, on the type
   * itself (the fix is there, not at its uses).
   */
  boolean reachable(TypeElement e, String kind) {
    String problem = sourceFiles.auxiliaryProblem(e, kind);
    if (problem == null) {
      return true;
    }
    if (checkedTypes.put("auxiliary:" + e.getQualifiedName(), false) == null) {
      report.error(e, "UnreachableType", problem);
    }
    scope.failed = true;
    return false;
  }

  boolean accessible(TypeElement e) {
    String pkg = elements.getPackageOf(e).getQualifiedName().toString();
    for (Element x = e; x != null && !(x instanceof PackageElement); x = x.getEnclosingElement()) {
      if (x.getModifiers().contains(Modifier.PRIVATE)) {
        return false;
      }
      if (!x.getModifiers().contains(Modifier.PUBLIC) && !pkg.equals(scope.packageName)) {
        return false;
      }
    }
    return true;
  }

  static boolean accessibleFromOwnPackage(TypeElement e) {
    for (Element x = e; x != null && !(x instanceof PackageElement); x = x.getEnclosingElement()) {
      if (x.getModifiers().contains(Modifier.PRIVATE)) {
        return false;
      }
    }
    return true;
  }

  boolean isSubtypeOfErasure(TypeMirror t, TypeElement of) {
    return of != null && t.getKind() == TypeKind.DECLARED && types.isSubtype(types.erasure(t), types.erasure(of.asType()));
  }

  static boolean isType(TypeMirror t, String qualifiedName) {
    return t.getKind() == TypeKind.DECLARED
        && ((TypeElement) ((DeclaredType) t).asElement()).getQualifiedName().contentEquals(qualifiedName);
  }
}
