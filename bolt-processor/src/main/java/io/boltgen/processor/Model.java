package io.boltgen.processor;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import java.util.List;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;

/**
 * The immutable model the writers work from. Built by {@link ModelReader} (the only layer that uses
 * {@code Elements}/{@code Types}); elements are kept only to attach diagnostics and originating elements.
 */
final class Model {

  private Model() {}

  /** Where a diagnostic goes: an element, optionally narrowed to an annotation and one of its values. */
  record Site(Element element, AnnotationMirror mirror, AnnotationValue value) {
    static Site of(Element element) {
      return new Site(element, null, null);
    }
  }

  /** The Java scalar kinds (their wire behaviour: {@link ScalarKind}). */
  @SuppressWarnings("ImmutableEnumChecker") // JavaPoet's TypeName is immutable, but not annotated so
  enum Scalar {
    BOOLEAN(TypeName.BOOLEAN),
    BYTE(TypeName.BYTE),
    SHORT(TypeName.SHORT),
    CHAR(TypeName.CHAR),
    INT(TypeName.INT),
    LONG(TypeName.LONG),
    FLOAT(TypeName.FLOAT),
    DOUBLE(TypeName.DOUBLE);

    final TypeName primitive;

    Scalar(TypeName primitive) {
      this.primitive = primitive;
    }
  }

  /** A serializable Java type. */
  sealed interface Type permits ScalarType, StringType, BytesType, EnumType, MessageType, ProtoMessageType,
      JdkType, RepeatedType, MapType, OptionalType, NestedType {

    /** The Java type as declared (boxed where the declaration is boxed). */
    TypeName javaType();
  }

  /**
   * How an {@code int} or a {@code long} travels ({@code @BoltScalar}): {@code PLAIN} is what the Java type
   * implies (int32, int64), the others the uint, sint, fixed and sfixed types of the same width.
   */
  enum Encoding {
    PLAIN,
    UNSIGNED,
    ZIGZAG,
    FIXED,
    SIGNED_FIXED
  }

  /**
   * A primitive or its box; {@code boxed} types carry presence (proto3 {@code optional}). {@code encoding} is
   * {@link Encoding#PLAIN} but for an {@code int} or {@code long} declared with {@code @BoltScalar}.
   */
  record ScalarType(Scalar scalar, boolean boxed, Encoding encoding) implements Type {
    ScalarType(Scalar scalar, boolean boxed) {
      this(scalar, boxed, Encoding.PLAIN);
    }

    @Override
    public TypeName javaType() {
      return boxed ? scalar.primitive.box() : scalar.primitive;
    }

    /**
     * Whether the value is unsigned ({@code uint32}, {@code uint64}, {@code fixed32}, {@code fixed64}): its JSON is
     * the unsigned number its bits hold.
     */
    boolean unsigned() {
      return encoding == Encoding.UNSIGNED || encoding == Encoding.FIXED;
    }

    /** Whether every value takes the same bytes on the wire: a float, a double, a fixed or sfixed type. */
    boolean fixedWidth() {
      return scalar == Scalar.FLOAT || scalar == Scalar.DOUBLE || encoding == Encoding.FIXED
          || encoding == Encoding.SIGNED_FIXED;
    }
  }

  /** {@code String}: proto {@code string}. */
  record StringType() implements Type {
    @Override
    public TypeName javaType() {
      return ClassName.get(String.class);
    }
  }

  /** {@code byte[]}: proto {@code bytes}. */
  record BytesType() implements Type {
    @Override
    public TypeName javaType() {
      return com.palantir.javapoet.ArrayTypeName.of(TypeName.BYTE);
    }
  }

  /** A Java enum: a proto enum numbered by ordinal, or by {@code @BoltEnumValue} when {@code pinned}. */
  record EnumType(ClassName className, String protoName, boolean pinned) implements Type {
    @Override
    public TypeName javaType() {
      return className;
    }
  }

  /**
   * A record: a proto message; or a sealed interface of records ({@code oneof}): a proto message holding a
   * {@code oneof} with a field per record, whose value reads as {@code null} when a newer peer sent a case
   * this side does not know.
   */
  record MessageType(ClassName className, String protoName, boolean oneof) implements Type {
    @Override
    public TypeName javaType() {
      return className;
    }
  }

  /**
   * A protobuf-java generated message, carried as an embedded message. Declared in the {@code .proto} as
   * {@code protoName} (fully qualified, leading dot) importing {@code protoFile}: known for the well-known
   * types ({@link WellKnownTypes}), read from the class's descriptor for others ({@link ProtoDescriptors}).
   * {@code defaultTag} is the tag of its first field without presence (a plain number, string or enum, or a
   * packable repeated field), which at its default value parses to the default instance; 0 when it has none or
   * it was not read (a well-known type).
   */
  record ProtoMessageType(ClassName className, String protoName, String protoFile, int defaultTag) implements Type {
    @Override
    public TypeName javaType() {
      return className;
    }
  }

  /**
   * The JDK value types with a fixed protobuf form (runtime: {@code ProtoTypes}): {@code google.protobuf}
   * messages for {@code Instant} and {@code Duration}, canonical text for the others.
   */
  @SuppressWarnings("ImmutableEnumChecker") // JavaPoet's ClassName is immutable, but not annotated so
  enum Jdk {
    INSTANT(ClassName.get("java.time", "Instant"), "Timestamp"),
    DURATION(ClassName.get("java.time", "Duration"), "Duration"),
    BIG_DECIMAL(ClassName.get("java.math", "BigDecimal"), "BigDecimal"),
    BIG_INTEGER(ClassName.get("java.math", "BigInteger"), "BigInteger"),
    UUID(ClassName.get("java.util", "UUID"), "Uuid"),
    LOCAL_DATE(ClassName.get("java.time", "LocalDate"), "LocalDate"),
    LOCAL_TIME(ClassName.get("java.time", "LocalTime"), "LocalTime"),
    LOCAL_DATE_TIME(ClassName.get("java.time", "LocalDateTime"), "LocalDateTime"),
    URI(ClassName.get("java.net", "URI"), "Uri"),
    DATE(ClassName.get("java.util", "Date"), "Date"),
    SQL_TIMESTAMP(ClassName.get("java.sql", "Timestamp"), "SqlTimestamp");

    final ClassName className;
    /** The suffix of its {@code ProtoTypes} functions ({@code sizeTimestamp}, {@code parseUuid}). */
    final String runtimeName;

    Jdk(ClassName className, String runtimeName) {
      this.className = className;
      this.runtimeName = runtimeName;
    }

    /** Whether it travels as a {@code google.protobuf} message (else as a {@code string}). */
    boolean message() {
      return this == INSTANT || this == DURATION || this == DATE || this == SQL_TIMESTAMP;
    }

    /** The value type of {@code qualifiedName}, or {@code null}. */
    static Jdk of(String qualifiedName) {
      for (Jdk j : values()) {
        if (j.className.canonicalName().equals(qualifiedName)) {
          return j;
        }
      }
      return null;
    }
  }

  /** A JDK value type with a fixed protobuf form. */
  record JdkType(Jdk jdk) implements Type {
    @Override
    public TypeName javaType() {
      return jdk.className;
    }
  }

  /**
   * {@code List<E>}, {@code Set<E>} or an array {@code E[]} (any but {@code byte[]}): a repeated field. An array's
   * element is its component as declared ({@code int} for {@code int[]}, {@code Integer} for {@code Integer[]}).
   */
  record RepeatedType(Type element, boolean set, TypeName javaType) implements Type {
    boolean packed() {
      return element instanceof ScalarType || element instanceof EnumType;
    }

    /** Whether it is an array. */
    boolean array() {
      return javaType instanceof com.palantir.javapoet.ArrayTypeName;
    }
  }

  /** {@code Map<K, V>}: a proto map. */
  record MapType(Type key, Type value, TypeName javaType) implements Type {}

  /**
   * A collection, map or array inside a collection, an array or a map's value ({@code List<List<String>>},
   * {@code int[][]}, {@code Map<String, List<Integer>>}). Protobuf has no repeated field of repeated fields, so it
   * travels as a message of its own, {@code protoName}, whose one field {@code values = 1} is {@code inner}
   * ({@link MessageKind#NESTED}); Hessian2 writes {@code inner} itself.
   */
  record NestedType(Type inner, String protoName) implements Type {
    @Override
    public TypeName javaType() {
      return inner.javaType();
    }
  }

  /** {@code Optional<T>}: a field with presence. */
  record OptionalType(Type value, TypeName javaType) implements Type {}

  /** One field of a message. */
  record Field(String name, int number, Type type, Site site) {}

  /** What a message is in Java. */
  enum MessageKind {
    /** A user record. */
    RECORD,
    /** A generated record holding a method's arguments. */
    REQUEST,
    /** A method's result, carried as field 1 (none for void). */
    RESPONSE,
    /** A sealed interface of records: one {@code oneof} field per record. */
    ONEOF,
    /** A collection inside a collection ({@link NestedType}), carried as field 1, {@code values}. */
    NESTED;

    /** Whether the message's one field is the Java value itself (a result, a nested collection), not a component. */
    boolean holdsValue() {
      return this == RESPONSE || this == NESTED;
    }
  }

  /**
   * A proto message and its Java type.
   *
   * @param protoName the name in the {@code .proto} (unique within a service)
   * @param javaType the record, the generated request record, or the result type (boxed; Void for void)
   */
  record Message(
      MessageKind kind, String protoName, TypeName javaType, List<Field> fields, List<Integer> reserved,
      String javadoc, Site site) {}

  /**
   * A Java enum used as a proto enum; {@code numbers} are the constants' numbers (their ordinals unless
   * {@code pinned} by {@code @BoltEnumValue}).
   */
  record Enumeration(String protoName, ClassName className, List<String> constants, List<Integer> numbers, boolean pinned,
      String javadoc, Site site) {}

  /** The call style, from the signature. */
  enum Style {
    SYNC,
    FUTURE,
    CALLBACK,
    ONEWAY,
    /** Server streaming: {@code Flow.Publisher<T>}, one request and a stream of answers. */
    STREAM,
    /** Client streaming: {@code CompletableFuture<R> m(Flow.Publisher<T>)}, a stream of requests and one answer. */
    CLIENT_STREAM,
    /** Bidirectional streaming: {@code Flow.Publisher<R> m(Flow.Publisher<T>)}, a stream each way. */
    BIDI_STREAM;

    /** Whether the caller sends a stream of requests, one request record each. */
    boolean streamsRequests() {
      return this == CLIENT_STREAM || this == BIDI_STREAM;
    }

    /** Whether the server answers with a stream of messages. */
    boolean streamsAnswers() {
      return this == STREAM || this == BIDI_STREAM;
    }

    /** Whether either side streams. */
    boolean streams() {
      return streamsRequests() || streamsAnswers();
    }
  }

  /** How a method's request message is described: "The arguments of ", "One message of the stream of requests of ". */
  static String requestNoun(Method m) {
    return m.style().streamsRequests() ? "One message of the stream of requests of " : "The arguments of ";
  }

  /** How a method's response message is described: "The result of ", "One message of the stream of "… */
  static String resultNoun(Method m) {
    return m.style().streamsAnswers() ? "One message of the stream of "
        : m.voidResult() ? "The (empty) result of " : "The result of ";
  }

  /** The type of the messages of {@code publisher}, a {@code Flow.Publisher<T>}: {@code T}. */
  static TypeName streamed(TypeName publisher) {
    return ((ParameterizedTypeName) publisher).typeArguments().get(0);
  }

  /** A declared exception rebuilt on the client from its remote class name. */
  record MappedException(ClassName className, String binaryName, boolean checked) {}

  /** One parameter of a service method (not the callback). */
  record Param(String name, TypeName javaType) {}

  /**
   * One RPC method. {@code idempotent}: marked {@code @Idempotent}, so its descriptor lets a balancing client
   * send it again after its request was written (never true for a oneway method).
   */
  record Method(
      ExecutableElement element,
      String javaName,
      String wireMethodName,
      Site nameSite,
      Style style,
      boolean idempotent,
      List<Param> params,
      String callbackName,
      TypeName returnType,
      TypeName resultType,
      List<TypeName> thrownTypes,
      List<MappedException> exceptions,
      long timeoutMillis,
      Site timeoutSite,
      Message request,
      Message response,
      String javadoc,
      boolean deprecated) {

    String wireName(String service, String version) {
      return service + ':' + version + '/' + wireMethodName;
    }

    /**
     * Whether every type of the method could be read; an incomplete method (its errors reported) has no
     * messages, and its service generates nothing.
     */
    boolean complete() {
      return request != null;
    }

    boolean voidResult() {
      return resultType.equals(ClassName.get(Void.class));
    }
  }

  /** One {@code @BoltService} interface. */
  record Service(
      TypeElement element,
      ClassName iface,
      String serviceName,
      Site nameSite,
      String version,
      Site versionSite,
      long timeoutMillis,
      Site timeoutSite,
      String protoPackage,
      String protoServiceName,
      List<Method> methods,
      List<Message> messages,
      List<Enumeration> enums,
      String javadoc,
      boolean usesDeprecated) {

    /** Whether every method is {@linkplain Method#complete() complete}. */
    boolean complete() {
      return methods.stream().allMatch(Method::complete);
    }
  }
}
