package io.boltgen.processor;

import com.palantir.javapoet.ArrayTypeName;
import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import io.boltgen.processor.Model.Field;
import io.boltgen.processor.Model.MappedException;
import io.boltgen.processor.Model.Message;
import io.boltgen.processor.Model.Method;
import io.boltgen.processor.Model.Service;
import io.boltgen.processor.Model.Site;
import io.boltgen.processor.Model.Style;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * Reads {@code @SofaRpcService} (and the {@code @SofaRpcClass} names of the types it uses) into a
 * {@link SofaRpcModel}, and checks that the service fits SOFARPC's serializer: one record argument and a record
 * result for protobuf; for Hessian2, only the types SOFARPC's Java side has an obvious class for.
 */
final class SofaRpcReader {

  /** The JDK value types sofa-hessian writes without reflection ({@code SofaRpcJdkTypes}). */
  private static final Set<Model.Jdk> HESSIAN_JDK_TYPES = EnumSet.of(Model.Jdk.BIG_DECIMAL, Model.Jdk.BIG_INTEGER,
      Model.Jdk.UUID, Model.Jdk.INSTANT, Model.Jdk.DURATION, Model.Jdk.LOCAL_DATE, Model.Jdk.LOCAL_TIME,
      Model.Jdk.LOCAL_DATE_TIME, Model.Jdk.DATE, Model.Jdk.SQL_TIMESTAMP);

  private static final Pattern JAVA_NAME = Pattern.compile("[A-Za-z_$][A-Za-z0-9_$]*(\\.[A-Za-z_$][A-Za-z0-9_$]*)*");

  private final Elements elements;
  private final Report report;
  private final SofaRpcExceptions exceptionForms;

  SofaRpcReader(Elements elements, Types types, Report report) {
    this.elements = elements;
    this.report = report;
    this.exceptionForms = new SofaRpcExceptions(elements, types, report);
  }

  /**
   * The dialect of {@code service}; {@code null} when it has none or when it breaks a rule (then reported, which
   * the caller sees in the report's error count).
   */
  SofaRpcModel read(TypeElement type, Service service) {
    AnnotationMirror mirror = Annotations.annotation(type, Names.SOFA_RPC_SERVICE);
    if (mirror == null) {
      return null;
    }
    int before = report.errorCount();
    String interfaceName = Annotations.stringValue(elements, mirror, "interfaceName");
    String version = Annotations.stringValue(elements, mirror, "version");
    String uniqueId = Annotations.stringValue(elements, mirror, "uniqueId");
    String serializer = Annotations.valueWithDefault(elements, mirror, "serializer").getValue().toString();
    Site site = new Site(type, mirror, Annotations.explicitValue(mirror, "interfaceName"));
    if (elements.getTypeElement(Names.SOFA_RPC.canonicalName()) == null) {
      report.error(new Site(type, mirror, null), "SofaRpcRuntimeMissing", "the code generated for @SofaRpcService "
          + type.getSimpleName() + " calls io.boltgen:bolt-sofarpc, which is not on this module's class path ("
          + Names.SOFARPC + " is missing): add the dependency io.boltgen:bolt-sofarpc beside io.boltgen:bolt-runtime");
    }
    if (!JAVA_NAME.matcher(interfaceName).matches()) {
      report.error(site, "InvalidSofaRpcService", "interfaceName \"" + interfaceName
          + "\" is not a Java interface name; give the fully qualified name of the SOFARPC side's interface");
    }
    if (version.isEmpty() || version.contains(":") || uniqueId.contains(":")) {
      report.error(new Site(type, mirror, null), "InvalidSofaRpcService",
          "a SOFARPC version must not be empty, and neither it nor the uniqueId may contain ':'");
    }
    SofaRpcModel.Serializer kind = SofaRpcModel.Serializer.valueOf(serializer);
    Map<TypeName, String> remoteNames = new LinkedHashMap<>();
    List<ClassName> exceptions = new ArrayList<>();
    Map<ClassName, SofaRpcExceptions.ExceptionForm> forms = new HashMap<>();
    for (Message message : service.messages()) {
      if (message.javaType() instanceof ClassName c) {
        remoteNames.put(c, remoteName(c));
      }
    }
    for (Model.Enumeration e : service.enums()) {
      remoteNames.put(e.className(), remoteName(e.className()));
    }
    for (Method m : service.methods()) {
      for (MappedException ex : m.exceptions()) {
        if (!remoteNames.containsKey(ex.className())) {
          remoteNames.put(ex.className(), remoteName(ex.className(), ex.binaryName()));
          exceptions.add(ex.className());
          forms.put(ex.className(), kind == SofaRpcModel.Serializer.HESSIAN2
              ? exceptionForms.read(ex.className(), Site.of(m.element()))
              : SofaRpcExceptions.ExceptionForm.messageOnly(ex.className()));
        }
      }
      checkDistinctExceptionNames(m, remoteNames);
      if (m.style().streams()) {
        report.error(Site.of(m.element()), "UnsupportedSofaRpcMethod", "SOFARPC's bolt protocol carries one request"
            + " and one answer per call: " + m.javaName() + " cannot " + (m.style().streamsRequests()
            ? "take" : "return") + " a Flow.Publisher in a @SofaRpcService");
        continue;
      }
      if (kind == SofaRpcModel.Serializer.PROTOBUF) {
        checkProtobuf(m);
      } else {
        checkHessian(m);
      }
    }
    if (kind == SofaRpcModel.Serializer.HESSIAN2) {
      for (Message message : service.messages()) {
        if (message.kind() == Model.MessageKind.ONEOF || message.kind() == Model.MessageKind.NESTED) {
          continue; // checked where it is used (an argument, a result, a component), once
        }
        for (Field f : message.fields()) {
          checkHessianType(f.type(), f.site(), "component " + f.name());
        }
      }
    }
    if (report.errorCount() != before) {
      return null;
    }
    return new SofaRpcModel(interfaceName, version, uniqueId, kind,
        Annotations.stringValue(elements, mirror, "targetApp"), Annotations.stringValue(elements, mirror, "app"),
        remoteNames, subclassesFirst(exceptions).stream().map(forms::get).toList());
  }

  /**
   * {@code exceptions} with the deepest classes first (a subclass is deeper than its superclasses), else in the
   * order they are declared.
   */
  private List<ClassName> subclassesFirst(List<ClassName> exceptions) {
    Map<ClassName, Integer> depth = new HashMap<>();
    for (ClassName c : exceptions) {
      int d = 0;
      TypeElement e = elements.getTypeElement(c.canonicalName());
      while (e != null && e.getSuperclass() instanceof DeclaredType parent) {
        d++;
        e = (TypeElement) parent.asElement();
      }
      depth.put(c, d);
    }
    List<ClassName> ordered = new ArrayList<>(exceptions);
    ordered.sort(Comparator.comparing(depth::get, Comparator.reverseOrder()));
    return List.copyOf(ordered);
  }

  private String remoteName(ClassName c) {
    TypeElement element = elements.getTypeElement(c.canonicalName());
    return remoteName(c, element == null ? c.reflectionName() : elements.getBinaryName(element).toString());
  }

  private String remoteName(ClassName c, String binaryName) {
    TypeElement element = elements.getTypeElement(c.canonicalName());
    AnnotationMirror named = element == null ? null : Annotations.annotation(element, Names.SOFA_RPC_CLASS);
    if (named == null) {
      return binaryName;
    }
    String value = Annotations.stringValue(elements, named, "value");
    if (!JAVA_NAME.matcher(value).matches()) {
      report.error(new Site(element, named, Annotations.explicitValue(named, "value")), "InvalidSofaRpcClass",
          "\"" + value + "\" is not a Java class name");
    }
    return value;
  }

  /** Two exceptions a method declares must not stand for one SOFARPC class: a client could not tell them apart. */
  private void checkDistinctExceptionNames(Method m, Map<TypeName, String> remoteNames) {
    Map<String, ClassName> byRemote = new LinkedHashMap<>();
    for (MappedException ex : m.exceptions()) {
      String remote = remoteNames.get(ex.className());
      ClassName other = byRemote.putIfAbsent(remote, ex.className());
      if (other != null && !other.equals(ex.className())) {
        report.error(Site.of(m.element()), "InvalidSofaRpcClass", m.javaName() + " declares " + other.simpleName()
            + " and " + ex.className().simpleName() + ", which both stand for the SOFARPC class " + remote
            + "; a client could not tell them apart: give each its own @SofaRpcClass");
      }
    }
  }

  private void checkProtobuf(Method m) {
    Site site = Site.of(m.element());
    boolean oneMessage = m.request().fields().size() == 1 && isMessage(m.request().fields().get(0).type());
    if (!oneMessage) {
      report.error(site, "UnsupportedSofaRpcMethod", "SOFARPC's protobuf serializer sends exactly one argument, a"
          + " message: " + m.javaName() + " must take one record or protobuf-java message class (the provider's"
          + " request message)");
    }
    if (m.style() == Style.ONEWAY) {
      return;
    }
    boolean messageResult = m.response().fields().size() == 1 && isMessage(m.response().fields().get(0).type());
    if (!messageResult) {
      report.error(site, "UnsupportedSofaRpcMethod", "SOFARPC's protobuf serializer answers with a message: "
          + m.javaName() + " must return a record or protobuf-java message class (the provider's response message),"
          + " or be @Oneway");
    }
  }

  /** A whole protobuf message: a record (not a oneof), or a protobuf-java class such as the provider's own. */
  private static boolean isMessage(Model.Type type) {
    return (type instanceof Model.MessageType message && !message.oneof()) || type instanceof Model.ProtoMessageType;
  }

  private void checkHessian(Method m) {
    for (Field f : m.request().fields()) {
      VariableElement param = m.element().getParameters().get(f.number() - 1);
      checkHessianType(f.type(), Site.of(param), "argument " + f.name());
    }
    for (Field f : m.response().fields()) {
      checkHessianType(f.type(), Site.of(m.element()), "the result of " + m.javaName() + "()");
    }
  }

  private void checkHessianType(Model.Type type, Site site, String what) {
    String problem = null;
    if (type instanceof Model.MessageType msg && msg.oneof()) {
      problem = "a sealed interface (oneof)";
    } else if (type instanceof Model.ProtoMessageType) {
      problem = "a protobuf-java message";
    } else if (type instanceof Model.JdkType j && !HESSIAN_JDK_TYPES.contains(j.jdk())) {
      // sofa-hessian writes these by reflection into the JDK, which Java 17 refuses without --add-opens
      problem = j.jdk().className.simpleName() + ", which SOFARPC itself cannot write on Java 17 (sofa-hessian"
          + " reaches into its private fields)";
    } else if (type instanceof Model.OptionalType) {
      problem = "an Optional";
    }
    if (type instanceof Model.ScalarType s && s.encoding() != Model.Encoding.PLAIN) {
      report.error(site, "UnsupportedSofaRpcType", what + " names a protobuf type with @BoltScalar, which means"
          + " nothing in SOFARPC's Hessian2 form (an int travels as a Hessian int, a long as a Hessian long)");
      return;
    }
    if (problem != null) {
      report.error(site, "UnsupportedSofaRpcType", what + " is " + problem + ", which boltgen does not write in"
          + " SOFARPC's Hessian2 form; use primitives and their boxes, String, arrays, List, Set, Map, enums, records,"
          + " java.util.Date, java.sql.Timestamp, BigDecimal, BigInteger, UUID, Instant, Duration, LocalDate, LocalTime"
          + " or LocalDateTime");
      return;
    }
    if (type instanceof Model.NestedType n) {
      checkHessianType(n.inner(), site, what);
    } else if (type instanceof Model.RepeatedType r) {
      checkHessianType(r.element(), site, what + "'s element");
    } else if (type instanceof Model.MapType map) {
      checkHessianType(map.key(), site, what + "'s key");
      checkHessianType(map.value(), site, what + "'s value");
    }
  }

  /** The descriptor letter of each primitive type, as in {@code Class.getName()} of its array. */
  private static final Map<String, String> PRIMITIVE_DESCRIPTORS = Map.of("boolean", "Z", "byte", "B", "char", "C",
      "short", "S", "int", "I", "long", "J", "float", "F", "double", "D");

  /**
   * The Java type name SOFARPC's {@code methodArgSigs} carries for a parameter declared as {@code type}:
   * {@code Class.getName()} of the declared class, with records and enums under their SOFARPC names.
   */
  static String argSig(TypeName type, Map<TypeName, String> remoteNames) {
    if (type.isPrimitive()) {
      return type.toString();
    }
    if (type instanceof ArrayTypeName a) {
      TypeName c = a.componentType();
      String component = argSig(c, remoteNames);
      return "[" + (c.isPrimitive() ? PRIMITIVE_DESCRIPTORS.get(component)
          : c instanceof ArrayTypeName ? component : "L" + component + ";");
    }
    if (type instanceof ParameterizedTypeName p) {
      return p.rawType().reflectionName();
    }
    String remote = remoteNames.get(type);
    if (remote != null) {
      return remote;
    }
    return ((ClassName) type).reflectionName();
  }
}
