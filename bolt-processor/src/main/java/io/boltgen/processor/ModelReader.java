package io.boltgen.processor;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import io.boltgen.processor.Model.BytesType;
import io.boltgen.processor.Model.EnumType;
import io.boltgen.processor.Model.Field;
import io.boltgen.processor.Model.MapType;
import io.boltgen.processor.Model.MappedException;
import io.boltgen.processor.Model.MessageKind;
import io.boltgen.processor.Model.MessageType;
import io.boltgen.processor.Model.OptionalType;
import io.boltgen.processor.Model.Param;
import io.boltgen.processor.Model.ProtoMessageType;
import io.boltgen.processor.Model.RepeatedType;
import io.boltgen.processor.Model.Scalar;
import io.boltgen.processor.Model.ScalarType;
import io.boltgen.processor.Model.Site;
import io.boltgen.processor.Model.StringType;
import io.boltgen.processor.Model.Style;
import io.boltgen.processor.Model.Type;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.NestingKind;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.RecordComponentElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.ExecutableType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * Reads a {@code @BoltService} interface into a {@link Model.Service}: the only layer that uses
 * {@link Elements} and {@link Types}. Problems that can only be seen on elements (kinds, modifiers, types
 * that cannot be serialized, exceptions that cannot be rebuilt) are reported here, each on its exact
 * element; the rules that work on the model are in {@link Validator}.
 */
final class ModelReader {

  /** A referenced type is not (yet) resolvable: the interface is deferred to a later round. */
  static final class Unresolved extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Unresolved(String what) {
      super(what, null, false, false);
    }
  }

  /** Names a record component may not have (JLS 8.10.1). */
  private static final Set<String> RECORD_FORBIDDEN =
      Set.of("clone", "finalize", "getClass", "hashCode", "notify", "notifyAll", "toString", "wait");

  private final Elements elements;
  private final Types types;
  private final Report report;
  private final TypeElement protobufMessage;
  private final TypeElement exceptionType;
  private final TypeElement runtimeExceptionType;
  private final TypeElement errorType;
  private final TypeElement futureType;
  private final TypeElement completionStageType;
  /** Records and enums already read in this round, so a bad one is reported once: name → ok. */
  private final Map<String, Boolean> checkedTypes;

  // per service
  private String packageName;
  private Map<String, Model.Message> messages;
  private Map<String, Model.Enum> enums;
  private boolean usesDeprecated;
  private boolean failed;

  ModelReader(Elements elements, Types types, Report report, Map<String, Boolean> checkedTypes) {
    this.elements = elements;
    this.types = types;
    this.report = report;
    this.checkedTypes = checkedTypes;
    this.protobufMessage = elements.getTypeElement("com.google.protobuf.Message");
    this.exceptionType = elements.getTypeElement("java.lang.Exception");
    this.runtimeExceptionType = elements.getTypeElement("java.lang.RuntimeException");
    this.errorType = elements.getTypeElement("java.lang.Error");
    this.futureType = elements.getTypeElement("java.util.concurrent.Future");
    this.completionStageType = elements.getTypeElement("java.util.concurrent.CompletionStage");
  }

  /** The model of {@code type}, or {@code null} after reporting why there is none. */
  Model.Service read(TypeElement type) {
    failed = false;
    messages = new LinkedHashMap<>();
    enums = new LinkedHashMap<>();
    usesDeprecated = false;
    AnnotationMirror service = annotation(type, Names.BOLT_SERVICE);
    if (type.getKind() != ElementKind.INTERFACE) {
      report.error(new Site(type, service, null), "NotAnInterface",
          "@BoltService may only be applied to interfaces, not to " + kindName(type) + " " + type.getSimpleName());
      return null;
    }
    checkInterface(type, service);
    if (failed) {
      return null;
    }
    packageName = elements.getPackageOf(type).getQualifiedName().toString();
    ClassName iface = ClassName.get(type);
    String name = stringValue(service, "name");
    if (name.isEmpty()) {
      name = type.getQualifiedName().toString();
    }
    String version = stringValue(service, "version");
    long timeout = longValue(service, "timeoutMillis");
    usesDeprecated |= elements.isDeprecated(type);

    List<Model.Method> methods = new ArrayList<>();
    for (ExecutableElement method : rpcMethods(type)) {
      Model.Method m = readMethod(type, method, timeout);
      if (m != null) {
        methods.add(m);
      }
    }
    if (failed) {
      return null;
    }
    return new Model.Service(type, iface, name, new Site(type, service, explicitValue(service, "name")), version,
        new Site(type, service, explicitValue(service, "version")), timeout,
        new Site(type, service, explicitValue(service, "timeoutMillis")), Names.protoPackage(name),
        Names.protoService(name), List.copyOf(methods), List.copyOf(messages.values()), List.copyOf(enums.values()),
        doc(type), usesDeprecated);
  }

  private void checkInterface(TypeElement type, AnnotationMirror service) {
    Site site = new Site(type, service, null);
    if (type.getModifiers().contains(Modifier.PRIVATE)) {
      report.error(site, "InvalidServiceInterface", "@BoltService interfaces must not be private");
      failed = true;
    }
    if (!type.getTypeParameters().isEmpty()) {
      report.error(site, "InvalidServiceInterface", "@BoltService interfaces must not be generic");
      failed = true;
    }
    if (type.getModifiers().contains(Modifier.SEALED)) {
      report.error(site, "InvalidServiceInterface", "@BoltService interfaces must not be sealed: the stub implements it");
      failed = true;
    }
    if (type.getNestingKind() == NestingKind.LOCAL || type.getNestingKind() == NestingKind.ANONYMOUS) {
      report.error(site, "InvalidServiceInterface", "@BoltService interfaces must not be local");
      failed = true;
    } else if (!failed && !accessibleFromOwnPackage(type)) {
      report.error(site, "InvalidServiceInterface",
          "@BoltService interfaces must be accessible from their package: an enclosing type is private");
      failed = true;
    }
  }

  /** Abstract methods: the interface's own in declaration order, then inherited ones, depth first. */
  private List<ExecutableElement> rpcMethods(TypeElement type) {
    List<ExecutableElement> out = new ArrayList<>();
    collect(type, out, new HashSet<>());
    return out;
  }

  private void collect(TypeElement type, List<ExecutableElement> out, Set<String> seenTypes) {
    if (!seenTypes.add(type.getQualifiedName().toString())) {
      return;
    }
    for (ExecutableElement m : ElementFilter.methodsIn(type.getEnclosedElements())) {
      if (!m.getModifiers().contains(Modifier.ABSTRACT)) {
        continue; // default, static and private methods are not RPC methods
      }
      boolean overridden = false;
      for (ExecutableElement earlier : out) {
        if (earlier.getSimpleName().equals(m.getSimpleName())
            && elements.overrides(earlier, m, (TypeElement) earlier.getEnclosingElement())) {
          overridden = true;
        }
      }
      if (!overridden) {
        out.add(m);
      }
    }
    for (TypeMirror superType : type.getInterfaces()) {
      if (superType.getKind() == TypeKind.ERROR) {
        throw new Unresolved(superType.toString());
      }
      collect((TypeElement) types.asElement(superType), out, seenTypes);
    }
  }

  // ------------------------------------------------------------------ methods

  private Model.Method readMethod(TypeElement service, ExecutableElement method, long serviceTimeout) {
    boolean before = failed;
    failed = false;
    String javaName = method.getSimpleName().toString();
    ExecutableType type = (ExecutableType) types.asMemberOf((DeclaredType) service.asType(), method);
    AnnotationMirror boltMethod = annotation(method, Names.BOLT_METHOD);
    AnnotationMirror oneway = annotation(method, Names.ONEWAY);
    String wireMethod = boltMethod == null ? "" : stringValue(boltMethod, "name");
    if (wireMethod.isEmpty()) {
      wireMethod = javaName;
    }
    int code = boltMethod == null ? 0 : (int) longValue(boltMethod, "code");
    long timeout = boltMethod == null ? 0 : longValue(boltMethod, "timeoutMillis");
    Site nameSite = boltMethod == null ? Site.of(method) : new Site(method, boltMethod, explicitValue(boltMethod, "name"));
    Site codeSite = boltMethod == null ? Site.of(method) : new Site(method, boltMethod, explicitValue(boltMethod, "code"));
    Site timeoutSite =
        boltMethod == null ? Site.of(method) : new Site(method, boltMethod, explicitValue(boltMethod, "timeoutMillis"));
    boolean deprecated = elements.isDeprecated(method);
    usesDeprecated |= deprecated;

    if (!method.getTypeParameters().isEmpty()) {
      report.error(method, "UnsupportedType", "RPC methods must not be generic: " + javaName + " declares "
          + method.getTypeParameters());
      failed = true;
    }

    // call style and result
    List<? extends VariableElement> params = method.getParameters();
    List<? extends TypeMirror> paramTypes = type.getParameterTypes();
    int callbackIndex = -1;
    for (int i = 0; i < params.size(); i++) {
      TypeMirror t = paramTypes.get(i);
      if (t.getKind() == TypeKind.ERROR) {
        throw new Unresolved(t.toString());
      }
      if (isType(t, Names.BOLT_CALLBACK)) {
        if (callbackIndex >= 0 || i != params.size() - 1) {
          report.error(params.get(i), "InvalidCallback",
              "a BoltCallback must be the last parameter, and there may be only one");
          failed = true;
        }
        callbackIndex = i;
      }
    }
    TypeMirror returnType = type.getReturnType();
    if (returnType.getKind() == TypeKind.ERROR) {
      throw new Unresolved(returnType.toString());
    }
    Style style;
    TypeMirror result = null; // null: void
    String context = javaName + "()";
    Site resultSite = Site.of(method);
    if (callbackIndex >= 0) {
      style = Style.CALLBACK;
      VariableElement cb = params.get(callbackIndex);
      if (returnType.getKind() != TypeKind.VOID) {
        report.error(method, "InvalidCallback", "a method with a BoltCallback parameter must return void");
        failed = true;
      }
      if (oneway != null) {
        report.error(new Site(method, oneway, null), "InvalidOneway", "@Oneway methods cannot take a BoltCallback");
        failed = true;
      }
      List<? extends TypeMirror> args = ((DeclaredType) paramTypes.get(callbackIndex)).getTypeArguments();
      if (args.isEmpty()) {
        report.error(cb, "InvalidCallback", "raw BoltCallback: declare BoltCallback<T>");
        failed = true;
      } else if (args.get(0).getKind() == TypeKind.WILDCARD) {
        report.error(cb, "InvalidCallback", "BoltCallback<" + args.get(0) + ">: declare BoltCallback<T> without a wildcard");
        failed = true;
      } else {
        result = voidToNull(args.get(0));
        resultSite = Site.of(cb);
        context = "the result of " + javaName + "() (callback " + cb.getSimpleName() + ")";
      }
    } else if (returnType.getKind() == TypeKind.VOID) {
      style = oneway != null ? Style.ONEWAY : Style.SYNC;
    } else if (isType(returnType, "java.util.concurrent.CompletableFuture")) {
      style = Style.FUTURE;
      List<? extends TypeMirror> args = ((DeclaredType) returnType).getTypeArguments();
      if (args.isEmpty()) {
        report.error(method, "UnsupportedReturnType", "raw CompletableFuture: declare CompletableFuture<T>");
        failed = true;
      } else if (args.get(0).getKind() == TypeKind.WILDCARD) {
        report.error(method, "UnsupportedReturnType",
            "CompletableFuture<" + args.get(0) + ">: declare CompletableFuture<T> without a wildcard");
        failed = true;
      } else {
        result = voidToNull(args.get(0));
      }
      context = "the result of " + javaName + "()";
    } else if (isSubtypeOfErasure(returnType, futureType) || isSubtypeOfErasure(returnType, completionStageType)) {
      style = Style.FUTURE;
      report.error(method, "UnsupportedReturnType", render(returnType) + " is not supported: use CompletableFuture<T>");
      failed = true;
    } else {
      style = Style.SYNC;
      result = returnType;
      context = "the result of " + javaName + "()";
    }
    if (oneway != null && style != Style.ONEWAY && style != Style.CALLBACK) {
      report.error(new Site(method, oneway, null), "InvalidOneway",
          "@Oneway methods must return void, not " + render(returnType));
      failed = true;
    }

    // parameters
    List<Param> javaParams = new ArrayList<>();
    List<Field> requestFields = new ArrayList<>();
    for (int i = 0; i < params.size(); i++) {
      if (i == callbackIndex) {
        continue;
      }
      VariableElement p = params.get(i);
      TypeMirror pt = paramTypes.get(i);
      String pname = p.getSimpleName().toString();
      if (RECORD_FORBIDDEN.contains(pname)) {
        report.error(p, "ReservedParameterName", "the parameter name " + pname
            + " cannot name a component of the generated request record; rename it");
        failed = true;
      }
      Type t = type(pt, Site.of(p), "parameter " + pname + " of " + javaName + "()", render(pt));
      javaParams.add(new Param(pname, TypeName.get(pt)));
      if (t != null) {
        requestFields.add(new Field(pname, requestFields.size() + 1, t, Site.of(p)));
      } else {
        requestFields.add(null);
      }
    }
    Type resultModel = null;
    if (result != null) {
      resultModel = type(result, resultSite, context, render(result));
    }

    // exceptions
    List<MappedException> mapped = new ArrayList<>();
    List<TypeName> thrown = new ArrayList<>();
    for (TypeMirror t : type.getThrownTypes()) {
      thrown.add(TypeName.get(t));
      MappedException m = exception(method, t, style);
      if (m != null) {
        mapped.add(m);
      }
    }

    boolean ok = !failed;
    failed = before || failed;
    if (!ok) {
      return null;
    }
    String cap = Names.capitalize(Validator.METHOD_NAME.matcher(wireMethod).matches() ? wireMethod : javaName);
    ClassName requestClass = Names.Generated.of(ClassName.get(service)).holder().nestedClass(cap + "Request");
    Model.Message request = new Model.Message(MessageKind.REQUEST, cap + "Request", requestClass,
        List.copyOf(requestFields), List.of(), null, Site.of(method));
    TypeName resultType = result == null ? ClassName.get(Void.class) : TypeName.get(result).box();
    List<Field> responseFields = resultModel == null ? List.of()
        : List.of(new Field("value", 1, resultModel, resultSite));
    Model.Message response = new Model.Message(MessageKind.RESPONSE, cap + "Response", resultType, responseFields,
        List.of(), null, Site.of(method));
    String callbackName = callbackIndex < 0 ? null : params.get(callbackIndex).getSimpleName().toString();
    return new Model.Method(method, javaName, wireMethod, nameSite, code, codeSite, 0, style, List.copyOf(javaParams),
        callbackName, TypeName.get(returnType), resultType, List.copyOf(thrown), List.copyOf(mapped),
        timeout == 0 ? serviceTimeout : timeout, timeoutSite, request, response, doc(method), deprecated);
  }

  private static TypeMirror voidToNull(TypeMirror t) {
    return t.getKind() == TypeKind.DECLARED && ((DeclaredType) t).asElement().toString().equals("java.lang.Void")
        ? null : t;
  }

  private MappedException exception(ExecutableElement method, TypeMirror t, Style style) {
    if (t.getKind() == TypeKind.ERROR) {
      throw new Unresolved(t.toString());
    }
    if (t.getKind() != TypeKind.DECLARED) {
      report.error(method, "UnmappableException", "cannot map the declared exception " + t
          + ": a type variable is not an exception class");
      failed = true;
      return null;
    }
    TypeElement ex = (TypeElement) ((DeclaredType) t).asElement();
    String name = ex.getQualifiedName().toString();
    if (name.equals(Names.BOLT_EXCEPTION.canonicalName())) {
      return null;
    }
    boolean unchecked = types.isSubtype(t, runtimeExceptionType.asType()) || types.isSubtype(t, errorType.asType());
    boolean isException = types.isSubtype(t, exceptionType.asType());
    if (!unchecked && !isException) {
      report.error(method, "UnmappableException", "cannot map the declared exception " + ex.getSimpleName()
          + ": declared exceptions must extend Exception");
      failed = true;
      return null;
    }
    if (types.isSubtype(t, errorType.asType())) {
      return null;
    }
    boolean constructible = !ex.getModifiers().contains(Modifier.ABSTRACT) && accessible(ex)
        && ElementFilter.constructorsIn(ex.getEnclosedElements()).stream().anyMatch(c ->
            c.getModifiers().contains(Modifier.PUBLIC) && c.getParameters().size() == 1
                && isType(c.getParameters().get(0).asType(), "java.lang.String"));
    if (!constructible) {
      if (!unchecked) {
        report.error(method, "UnmappableException", "the checked exception " + ex.getSimpleName()
            + " cannot be rebuilt on the client: it needs a public constructor taking the message (String)"
            + (ex.getModifiers().contains(Modifier.ABSTRACT) ? " and must not be abstract" : "")
            + "; add one, or declare an unchecked exception");
        failed = true;
      }
      return null;
    }
    if (style == Style.ONEWAY && !unchecked) {
      report.error(method, "InvalidOneway", "@Oneway methods learn of no error: they cannot declare the checked exception "
          + ex.getSimpleName());
      failed = true;
      return null;
    }
    usesDeprecated |= elements.isDeprecated(ex);
    return new MappedException(ClassName.get(ex), elements.getBinaryName(ex).toString(), !unchecked);
  }

  // ------------------------------------------------------------------ types

  /**
   * The model of {@code t}, or {@code null} after reporting on {@code site} why it cannot be serialized.
   * {@code path} is the whole declared type, rendered with simple names.
   */
  private Type type(TypeMirror t, Site site, String context, String path) {
    String problem;
    switch (t.getKind()) {
      case ERROR:
        throw new Unresolved(t.toString());
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
        if (((ArrayType) t).getComponentType().getKind() == TypeKind.BYTE) {
          return new BytesType();
        }
        problem = "arrays other than byte[] are not supported; use a List";
        break;
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

  private Type unsupported(Site site, String context, String path, String problem) {
    report.error(site, "UnsupportedType", "cannot serialize " + path + " (" + context + "): " + problem);
    failed = true;
    return null;
  }

  private Type declared(DeclaredType t, Site site, String context, String path) {
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
      case "java.util.List":
      case "java.util.Set": {
        String simple = e.getSimpleName().toString();
        if (args.isEmpty()) {
          return unsupported(site, context, path, "raw " + simple + ": declare its element type");
        }
        Type element = type(args.get(0), site, context, path);
        if (element == null) {
          return null;
        }
        if (element instanceof RepeatedType || element instanceof MapType || element instanceof OptionalType) {
          return unsupported(site, context, path, simple + " elements cannot be " + render(args.get(0))
              + ": protobuf has no nested repeated fields; wrap the inner value in a record");
        }
        return new RepeatedType(element, name.equals("java.util.Set"), TypeName.get(t));
      }
      case "java.util.Map": {
        if (args.isEmpty()) {
          return unsupported(site, context, path, "raw Map: declare its key and value types");
        }
        Type key = type(args.get(0), site, context, path);
        if (key == null) {
          return null;
        }
        boolean keyOk = key instanceof StringType
            || (key instanceof ScalarType s && s.scalar() != Scalar.FLOAT && s.scalar() != Scalar.DOUBLE);
        if (!keyOk) {
          return unsupported(site, context, path, "the Map key " + render(args.get(0))
              + " is not an integral type, Boolean or String (protobuf map keys)");
        }
        Type value = type(args.get(1), site, context, path);
        if (value == null) {
          return null;
        }
        if (value instanceof RepeatedType || value instanceof MapType || value instanceof OptionalType) {
          return unsupported(site, context, path, "Map values cannot be " + render(args.get(1))
              + ": protobuf map values cannot be repeated; wrap it in a record");
        }
        return new MapType(key, value, TypeName.get(t));
      }
      case "java.util.Optional": {
        if (args.isEmpty()) {
          return unsupported(site, context, path, "raw Optional: declare its value type");
        }
        Type value = type(args.get(0), site, context, path);
        if (value == null) {
          return null;
        }
        if (value instanceof RepeatedType || value instanceof MapType || value instanceof OptionalType) {
          return unsupported(site, context, path, "Optional cannot hold " + render(args.get(0))
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
    if (protobufMessage != null && types.isSubtype(types.erasure(t), types.erasure(protobufMessage.asType()))) {
      if (e.getKind() != ElementKind.CLASS || e.getModifiers().contains(Modifier.ABSTRACT)) {
        return unsupported(site, context, path, e.getSimpleName()
            + " is not a concrete generated protobuf message class (it needs a static parser())");
      }
      if (!accessible(e)) {
        return unsupported(site, context, path, e.getSimpleName() + " is not accessible from package " + packageName);
      }
      return new ProtoMessageType(ClassName.get(e));
    }
    String problem;
    if (name.equals("java.lang.Object")) {
      problem = "Object is not serializable; use a concrete type";
    } else if (e.getKind() == ElementKind.INTERFACE) {
      problem = "the interface " + e.getSimpleName() + " is not serializable (only List, Set, Map and Optional are)";
    } else {
      problem = e.getSimpleName() + " is not serializable: use primitives and their boxes, String, byte[], enums,"
          + " records, List, Set, Map, Optional or protobuf messages";
    }
    return unsupported(site, context, path, problem);
  }

  private Type enumType(TypeElement e, Site site, String context, String path) {
    String key = e.getQualifiedName().toString();
    String protoName = messageName(e);
    if (!accessible(e)) {
      return unsupported(site, context, path, "the enum " + e.getSimpleName() + " is not accessible from package "
          + packageName);
    }
    usesDeprecated |= elements.isDeprecated(e);
    if (!enums.containsKey(key)) {
      List<String> constants = e.getEnclosedElements().stream()
          .filter(x -> x.getKind() == ElementKind.ENUM_CONSTANT)
          .map(x -> x.getSimpleName().toString())
          .collect(Collectors.toList());
      if (constants.isEmpty()) {
        if (checkedTypes.put("enum:" + key, false) == null) {
          report.error(e, "InvalidEnum", "the enum " + e.getSimpleName()
              + " has no constants: a proto3 enum needs a first (zero) value");
        }
        failed = true;
        return null;
      }
      enums.put(key, new Model.Enum(protoName, ClassName.get(e), List.copyOf(constants), doc(e), Site.of(e)));
    }
    return new EnumType(ClassName.get(e), protoName);
  }

  private Type recordType(TypeElement e, Site site, String context, String path) {
    String key = e.getQualifiedName().toString();
    if (!e.getTypeParameters().isEmpty()) {
      return unsupported(site, context, path, "the generic record " + e.getSimpleName()
          + " is not supported: records used as messages must not have type parameters");
    }
    if (!accessible(e)) {
      return unsupported(site, context, path, "the record " + e.getSimpleName() + " is not accessible from package "
          + packageName);
    }
    ClassName className = ClassName.get(e);
    String protoName = messageName(e);
    MessageType result = new MessageType(className, protoName);
    if (messages.containsKey(key)) {
      return result;
    }
    Boolean known = checkedTypes.get("record:" + key);
    if (Boolean.FALSE.equals(known)) {
      failed = true; // reported already, by the service that met it first
      return null;
    }
    usesDeprecated |= elements.isDeprecated(e);
    // placeholder first: records may be recursive
    messages.put(key, null);
    AnnotationMirror message = annotation(e, Names.BOLT_MESSAGE);
    List<Integer> reserved = new ArrayList<>();
    if (message != null) {
      for (Object o : (List<?>) valueWithDefault(message, "reserved").getValue()) {
        reserved.add((Integer) ((AnnotationValue) o).getValue());
      }
    }
    boolean before = failed;
    failed = false;
    List<Field> fields = new ArrayList<>();
    List<? extends RecordComponentElement> components = e.getRecordComponents();
    for (int i = 0; i < components.size(); i++) {
      RecordComponentElement c = components.get(i);
      AnnotationMirror fieldAnnotation = annotation(c, Names.BOLT_FIELD);
      int number = fieldAnnotation == null ? 0 : (int) longValue(fieldAnnotation, "value");
      // javac gives record components no source position: report on the component's field, which has it
      Element at = ElementFilter.fieldsIn(e.getEnclosedElements()).stream()
          .filter(x -> x.getSimpleName().contentEquals(c.getSimpleName())).findFirst().map(x -> (Element) x).orElse(c);
      Site fieldSite = new Site(at, fieldAnnotation, null);
      TypeMirror ct = c.asType();
      Type t = type(ct, Site.of(at), "component " + c.getSimpleName() + " of record " + e.getSimpleName(), render(ct));
      usesDeprecated |= elements.isDeprecated(c.getAccessor());
      fields.add(new Field(c.getSimpleName().toString(), number, t, fieldSite));
    }
    if (fields.stream().allMatch(f -> f.number() == 0)) {
      // implicit numbering: 1, 2, 3… in declaration order
      for (int i = 0; i < fields.size(); i++) {
        Field f = fields.get(i);
        fields.set(i, new Field(f.name(), i + 1, f.type(), f.site()));
      }
    }
    boolean ok = !failed;
    failed = before || failed;
    checkedTypes.put("record:" + key, ok);
    if (!ok) {
      messages.remove(key);
      return null;
    }
    messages.put(key, new Model.Message(MessageKind.RECORD, protoName, className, List.copyOf(fields),
        List.copyOf(reserved), doc(e), new Site(e, message, null)));
    return result;
  }

  /** The proto name: {@code @BoltMessage(name)}, else the simple names joined by '_'. */
  private String messageName(TypeElement e) {
    AnnotationMirror message = annotation(e, Names.BOLT_MESSAGE);
    if (message != null) {
      String name = stringValue(message, "name");
      if (!name.isEmpty()) {
        return name;
      }
    }
    return String.join("_", ClassName.get(e).simpleNames());
  }

  // ------------------------------------------------------------------ helpers

  private boolean accessible(TypeElement e) {
    String pkg = elements.getPackageOf(e).getQualifiedName().toString();
    for (Element x = e; x != null && !(x instanceof PackageElement); x = x.getEnclosingElement()) {
      if (x.getModifiers().contains(Modifier.PRIVATE)) {
        return false;
      }
      if (!x.getModifiers().contains(Modifier.PUBLIC) && !pkg.equals(packageName)) {
        return false;
      }
    }
    return true;
  }

  private static boolean accessibleFromOwnPackage(TypeElement e) {
    for (Element x = e; x != null && !(x instanceof PackageElement); x = x.getEnclosingElement()) {
      if (x.getModifiers().contains(Modifier.PRIVATE)) {
        return false;
      }
    }
    return true;
  }

  private boolean isSubtypeOfErasure(TypeMirror t, TypeElement of) {
    return of != null && t.getKind() == TypeKind.DECLARED && types.isSubtype(types.erasure(t), types.erasure(of.asType()));
  }

  private static boolean isType(TypeMirror t, String qualifiedName) {
    return t.getKind() == TypeKind.DECLARED
        && ((TypeElement) ((DeclaredType) t).asElement()).getQualifiedName().contentEquals(qualifiedName);
  }

  /** {@code java.util.List<java.util.Map<p.Foo,?>>} → {@code List<Map<Foo,?>>}. */
  static String render(TypeMirror t) {
    return render(TypeName.get(t));
  }

  private static String render(TypeName t) {
    if (t instanceof ParameterizedTypeName p) {
      return p.rawType().simpleNames().get(p.rawType().simpleNames().size() - 1) + p.typeArguments().stream()
          .map(ModelReader::render).collect(Collectors.joining(",", "<", ">"));
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

  private static String kindName(TypeElement type) {
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

  private String doc(Element e) {
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

  private AnnotationValue valueWithDefault(AnnotationMirror m, String name) {
    return elements.getElementValuesWithDefaults(m).entrySet().stream()
        .filter(x -> x.getKey().getSimpleName().contentEquals(name)).findFirst().orElseThrow().getValue();
  }

  /** The value as written in the source, or {@code null} when it is the default. */
  private static AnnotationValue explicitValue(AnnotationMirror m, String name) {
    return m.getElementValues().entrySet().stream()
        .filter(x -> x.getKey().getSimpleName().contentEquals(name)).map(Map.Entry::getValue).findFirst().orElse(null);
  }

  private String stringValue(AnnotationMirror m, String name) {
    return (String) valueWithDefault(m, name).getValue();
  }

  private long longValue(AnnotationMirror m, String name) {
    return ((Number) valueWithDefault(m, name).getValue()).longValue();
  }
}
