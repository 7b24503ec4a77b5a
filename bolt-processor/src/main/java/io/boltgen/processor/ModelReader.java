package io.boltgen.processor;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.TypeName;
import io.boltgen.processor.Model.Field;
import io.boltgen.processor.Model.MappedException;
import io.boltgen.processor.Model.MessageKind;
import io.boltgen.processor.Model.Param;
import io.boltgen.processor.Model.Site;
import io.boltgen.processor.Model.Style;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.NestingKind;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
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

  private final Elements elements;
  private final Types types;
  private final Report report;
  private final TypeElement exceptionType;
  private final TypeElement runtimeExceptionType;
  private final TypeElement errorType;
  private final TypeElement futureType;
  private final TypeElement completionStageType;
  /** Records and enums already read in this round, so a bad one is reported once: name → ok. */
  private final Map<String, Boolean> checkedTypes;
  private final SourceFiles sourceFiles;
  private final ProtoDescriptors protoDescriptors;

  // per service
  private TypeReader.Scope scope;
  private TypeReader typeReader;

  ModelReader(Elements elements, Types types, Report report, Map<String, Boolean> checkedTypes,
      SourceFiles sourceFiles, ProtoDescriptors protoDescriptors) {
    this.sourceFiles = sourceFiles;
    this.protoDescriptors = protoDescriptors;
    this.elements = elements;
    this.types = types;
    this.report = report;
    this.checkedTypes = checkedTypes;
    this.exceptionType = elements.getTypeElement("java.lang.Exception");
    this.runtimeExceptionType = elements.getTypeElement("java.lang.RuntimeException");
    this.errorType = elements.getTypeElement("java.lang.Error");
    this.futureType = elements.getTypeElement("java.util.concurrent.Future");
    this.completionStageType = elements.getTypeElement("java.util.concurrent.CompletionStage");
  }

  /** The model of {@code type}, or {@code null} after reporting why there is none. */
  Model.Service read(TypeElement type) {
    scope = new TypeReader.Scope(elements.getPackageOf(type).getQualifiedName().toString());
    typeReader = new TypeReader(elements, types, report, checkedTypes, scope, sourceFiles, protoDescriptors);
    AnnotationMirror service = Annotations.annotation(type, Names.BOLT_SERVICE);
    if (type.getKind() != ElementKind.INTERFACE) {
      report.error(new Site(type, service, null), "NotAnInterface",
          "@BoltService may only be applied to interfaces, not to " + Annotations.kindName(type) + " " + type.getSimpleName());
      return null;
    }
    checkInterface(type, service);
    if (scope.failed) {
      return null;
    }
    ClassName iface = ClassName.get(type);
    String name = Annotations.stringValue(elements, service, "name");
    if (name.isEmpty()) {
      name = type.getQualifiedName().toString();
    }
    String version = Annotations.stringValue(elements, service, "version");
    long timeout = Annotations.longValue(elements, service, "timeoutMillis");
    scope.usesDeprecated |= elements.isDeprecated(type);

    List<ExecutableElement> rpcMethods = rpcMethods(type);
    for (ExecutableElement method : rpcMethods) {
      String cap = wrapperPrefix(method);
      scope.wrapperNames.add(cap + "Request");
      scope.wrapperNames.add(cap + "Response");
    }
    List<Model.Method> methods = new ArrayList<>();
    for (ExecutableElement method : rpcMethods) {
      methods.add(readMethod(type, method, timeout));
    }
    List<Model.Message> messages = scope.messages.values().stream().filter(m -> m != null).toList();
    // a method whose types failed stays in the model without messages: the name and code rules still see it
    return new Model.Service(type, iface, name, new Site(type, service, Annotations.explicitValue(service, "name")), version,
        new Site(type, service, Annotations.explicitValue(service, "version")), timeout,
        new Site(type, service, Annotations.explicitValue(service, "timeoutMillis")), Names.protoPackage(name),
        Names.protoService(name), List.copyOf(methods), messages, List.copyOf(scope.enums.values()),
        Annotations.doc(elements, type), scope.usesDeprecated);
  }

  private void checkInterface(TypeElement type, AnnotationMirror service) {
    Site site = new Site(type, service, null);
    if (type.getModifiers().contains(Modifier.PRIVATE)) {
      report.error(site, "InvalidServiceInterface", "@BoltService interfaces must not be private");
      scope.failed = true;
    }
    if (!type.getTypeParameters().isEmpty()) {
      report.error(site, "InvalidServiceInterface", "@BoltService interfaces must not be generic");
      scope.failed = true;
    }
    if (type.getModifiers().contains(Modifier.SEALED)) {
      report.error(site, "InvalidServiceInterface", "@BoltService interfaces must not be sealed: the stub implements it");
      scope.failed = true;
    }
    if (type.getNestingKind() == NestingKind.LOCAL || type.getNestingKind() == NestingKind.ANONYMOUS) {
      report.error(site, "InvalidServiceInterface", "@BoltService interfaces must not be local");
      scope.failed = true;
    } else if (!scope.failed && !TypeReader.accessibleFromOwnPackage(type)) {
      report.error(site, "InvalidServiceInterface",
          "@BoltService interfaces must be accessible from their package: an enclosing type is private");
      scope.failed = true;
    } else if (!scope.failed && !typeReader.reachable(type, "interface")) {
      scope.failed = true;
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
    boolean before = scope.failed;
    scope.failed = false;
    String javaName = method.getSimpleName().toString();
    ExecutableType type = (ExecutableType) types.asMemberOf((DeclaredType) service.asType(), method);
    AnnotationMirror boltMethod = Annotations.annotation(method, Names.BOLT_METHOD);
    AnnotationMirror oneway = Annotations.annotation(method, Names.ONEWAY);
    AnnotationMirror idempotent = Annotations.annotation(method, Names.IDEMPOTENT);
    String wireMethod = boltMethod == null ? "" : Annotations.stringValue(elements, boltMethod, "name");
    if (wireMethod.isEmpty()) {
      wireMethod = javaName;
    }
    long timeout = boltMethod == null ? 0 : Annotations.longValue(elements, boltMethod, "timeoutMillis");
    Site nameSite = boltMethod == null ? Site.of(method) : new Site(method, boltMethod, Annotations.explicitValue(boltMethod, "name"));
    Site timeoutSite =
        boltMethod == null ? Site.of(method) : new Site(method, boltMethod, Annotations.explicitValue(boltMethod, "timeoutMillis"));
    boolean deprecated = elements.isDeprecated(method);
    scope.usesDeprecated |= deprecated;

    if (!method.getTypeParameters().isEmpty()) {
      report.error(method, "UnsupportedType", "RPC methods must not be generic: " + javaName + " declares "
          + method.getTypeParameters());
      scope.failed = true;
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
      if (TypeReader.isType(t, Names.BOLT_CALLBACK)) {
        if (callbackIndex >= 0 || i != params.size() - 1) {
          report.error(params.get(i), "InvalidCallback",
              "a BoltCallback must be the last parameter, and there may be only one");
          scope.failed = true;
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
        scope.failed = true;
      }
      if (oneway != null) {
        report.error(new Site(method, oneway, null), "InvalidOneway", "@Oneway methods cannot take a BoltCallback");
        scope.failed = true;
      }
      List<? extends TypeMirror> args = ((DeclaredType) paramTypes.get(callbackIndex)).getTypeArguments();
      if (args.isEmpty()) {
        report.error(cb, "InvalidCallback", "raw BoltCallback: declare BoltCallback<T>");
        scope.failed = true;
      } else if (args.get(0).getKind() == TypeKind.WILDCARD) {
        report.error(cb, "InvalidCallback", "BoltCallback<" + args.get(0) + ">: declare BoltCallback<T> without a wildcard");
        scope.failed = true;
      } else {
        result = voidToNull(args.get(0));
        resultSite = Site.of(cb);
        context = "the result of " + javaName + "() (callback " + cb.getSimpleName() + ")";
      }
    } else if (returnType.getKind() == TypeKind.VOID) {
      style = oneway != null ? Style.ONEWAY : Style.SYNC;
    } else if (TypeReader.isType(returnType, "java.util.concurrent.CompletableFuture")) {
      style = Style.FUTURE;
      List<? extends TypeMirror> args = ((DeclaredType) returnType).getTypeArguments();
      if (args.isEmpty()) {
        report.error(method, "UnsupportedReturnType", "raw CompletableFuture: declare CompletableFuture<T>");
        scope.failed = true;
      } else if (args.get(0).getKind() == TypeKind.WILDCARD) {
        report.error(method, "UnsupportedReturnType",
            "CompletableFuture<" + args.get(0) + ">: declare CompletableFuture<T> without a wildcard");
        scope.failed = true;
      } else {
        result = voidToNull(args.get(0));
      }
      context = "the result of " + javaName + "()";
    } else if (TypeReader.isType(returnType, Names.FLOW_PUBLISHER)) {
      style = Style.STREAM;
      List<? extends TypeMirror> args = ((DeclaredType) returnType).getTypeArguments();
      if (args.isEmpty() || args.get(0).getKind() == TypeKind.WILDCARD || voidToNull(args.get(0)) == null) {
        report.error(method, "UnsupportedReturnType", (args.isEmpty() ? "raw Flow.Publisher"
            : "Flow." + Annotations.render(returnType)) + ": declare Flow.Publisher<T>, T the type of the stream's messages"
            + " (not a wildcard, not Void)");
        scope.failed = true;
      } else {
        result = args.get(0);
      }
      context = "the messages of " + javaName + "()";
    } else if (typeReader.isSubtypeOfErasure(returnType, futureType) || typeReader.isSubtypeOfErasure(returnType, completionStageType)) {
      style = Style.FUTURE;
      report.error(method, "UnsupportedReturnType", Annotations.render(returnType) + " is not supported: use CompletableFuture<T>");
      scope.failed = true;
    } else {
      style = Style.SYNC;
      result = returnType;
      context = "the result of " + javaName + "()";
    }
    if (oneway != null && style != Style.ONEWAY && style != Style.CALLBACK) {
      report.error(new Site(method, oneway, null), "InvalidOneway",
          "@Oneway methods must return void, not " + Annotations.render(returnType));
      scope.failed = true;
    }
    if (idempotent != null && style == Style.STREAM) {
      report.error(new Site(method, idempotent, null), "InvalidIdempotent", "a streaming method cannot be @Idempotent:"
          + " a client never sends a stream again, whose messages it may have taken already; remove @Idempotent");
      scope.failed = true;
    }
    if (idempotent != null && oneway != null) {
      // on the annotations, not the style: an @Oneway that is wrong for other reasons is reported above
      report.error(new Site(method, idempotent, null), "InvalidIdempotent", "@Oneway methods cannot be @Idempotent:"
          + " a client sends an idempotent call again when it fails, and nothing tells it that a oneway call failed;"
          + " remove @Idempotent, or remove @Oneway to make " + javaName + "() a request-response method");
      scope.failed = true;
    }

    // parameters
    List<Param> javaParams = new ArrayList<>();
    List<Field> requestFields = new ArrayList<>();
    boolean requestStream = false;
    for (int i = 0; i < params.size(); i++) {
      if (i == callbackIndex) {
        continue;
      }
      VariableElement p = params.get(i);
      TypeMirror pt = paramTypes.get(i);
      String pname = p.getSimpleName().toString();
      TypeMirror fieldType = pt;
      if (TypeReader.isType(pt, Names.FLOW_PUBLISHER)) {
        fieldType = StreamSignatures.requests(report, p, pt, params.size() - (callbackIndex >= 0 ? 1 : 0));
        requestStream = true;
        if (fieldType == null) {
          scope.failed = true;
          continue;
        }
      }
      if (TypeReader.RECORD_FORBIDDEN.contains(pname)) {
        report.error(p, "ReservedParameterName", "the parameter name " + pname
            + " cannot name a component of the generated request record; rename it");
        scope.failed = true;
      }
      String paramContext = (requestStream ? "the requests of parameter " : "parameter ") + pname + " of " + javaName
          + "()";
      Model.Type t = typeReader.scalarDeclared(p, p,
          typeReader.type(fieldType, Site.of(p), paramContext, Annotations.render(fieldType)), paramContext);
      javaParams.add(new Param(pname, TypeName.get(pt)));
      if (t != null) {
        requestFields.add(new Field(pname, requestFields.size() + 1, t, Site.of(p)));
      } else {
        requestFields.add(null);
      }
    }
    if (requestStream) {
      Style streaming = StreamSignatures.style(report, method, style, idempotent);
      scope.failed |= streaming == null;
      style = streaming != null ? streaming : style;
    }
    Model.Type resultModel = null;
    if (result != null) {
      resultModel = typeReader.type(result, resultSite, context, Annotations.render(result));
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

    boolean ok = !scope.failed;
    scope.failed = before || scope.failed;
    TypeName resultType = result == null ? ClassName.get(Void.class) : TypeName.get(result).box();
    Model.Message request = null;
    Model.Message response = null;
    if (ok) {
      String cap = wrapperPrefix(method);
      ClassName requestClass = Names.Generated.of(ClassName.get(service)).holder().nestedClass(cap + "Request");
      request = new Model.Message(MessageKind.REQUEST, cap + "Request", requestClass, List.copyOf(requestFields),
          List.of(), null, Site.of(method));
      List<Field> responseFields = resultModel == null ? List.of()
          : List.of(new Field("value", 1, resultModel, resultSite));
      response = new Model.Message(MessageKind.RESPONSE, cap + "Response", resultType, responseFields, List.of(),
          null, Site.of(method));
    }
    String callbackName = callbackIndex < 0 ? null : params.get(callbackIndex).getSimpleName().toString();
    return new Model.Method(method, javaName, wireMethod, nameSite, style,
        idempotent != null && style != Style.ONEWAY && !style.streams(), List.copyOf(javaParams),
        callbackName, TypeName.get(returnType), resultType, List.copyOf(thrown), List.copyOf(mapped),
        timeout == 0 ? serviceTimeout : timeout, timeoutSite, request, response, Annotations.doc(elements, method), deprecated);
  }

  /**
   * The name of a method's request and response messages without their suffix: its wire name (or Java name
   * when that is invalid), capitalized. These names are on the wire (the request record's binary name is a
   * className alias; the response message's full name is the response className), so they depend on the
   * method alone; records and enums of the service give way (see {@link TypeReader}).
   */
  private String wrapperPrefix(ExecutableElement method) {
    AnnotationMirror boltMethod = Annotations.annotation(method, Names.BOLT_METHOD);
    String wire = boltMethod == null ? "" : Annotations.stringValue(elements, boltMethod, "name");
    String name = wire.isEmpty() ? method.getSimpleName().toString() : wire;
    return Names.capitalize(Validator.METHOD_NAME.matcher(name).matches() ? name : method.getSimpleName().toString());
  }

  static TypeMirror voidToNull(TypeMirror t) {
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
      scope.failed = true;
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
      scope.failed = true;
      return null;
    }
    if (types.isSubtype(t, errorType.asType())) {
      return null;
    }
    if (!typeReader.reachable(ex, "exception")) {
      return null;
    }
    boolean constructible = !ex.getModifiers().contains(Modifier.ABSTRACT) && typeReader.accessible(ex)
        && ElementFilter.constructorsIn(ex.getEnclosedElements()).stream().anyMatch(c ->
            c.getModifiers().contains(Modifier.PUBLIC) && c.getParameters().size() == 1
                && TypeReader.isType(c.getParameters().get(0).asType(), "java.lang.String"));
    if (!constructible) {
      if (!unchecked) {
        report.error(method, "UnmappableException", "the checked exception " + ex.getSimpleName()
            + " cannot be rebuilt on the client: it needs a public constructor taking the message (String)"
            + (ex.getModifiers().contains(Modifier.ABSTRACT) ? " and must not be abstract" : "")
            + "; add one, or declare an unchecked exception");
        scope.failed = true;
      }
      return null;
    }
    if (style == Style.ONEWAY && !unchecked) {
      report.error(method, "InvalidOneway", "@Oneway methods learn of no error: they cannot declare the checked exception "
          + ex.getSimpleName());
      scope.failed = true;
      return null;
    }
    scope.usesDeprecated |= elements.isDeprecated(ex);
    return new MappedException(ClassName.get(ex), elements.getBinaryName(ex).toString(), !unchecked);
  }

  // ------------------------------------------------------------------ types

}
