package io.boltgen.runtime;

import io.boltgen.runtime.codec.Marshaller;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything the runtime needs to know about one RPC method: its names on the wire, its method code, its
 * call type, its default timeout and the marshallers of its request and response. Immutable; generated
 * code holds one per method in a {@code static final} field.
 *
 * <p>The request frame's className is {@link #wireName()}: by default {@code service:version/method}, so
 * that a SOFABolt server can serve the method with a UserProcessor whose {@code interest()} is that
 * string. The response frame's className is {@link #responseClassName()}.
 *
 * @param <Q> the request (argument tuple) type
 * @param <R> the response (result) type
 */
public final class MethodDescriptor<Q, R> {

  private final String serviceName;
  private final String serviceVersion;
  private final String methodName;
  private final String wireName;
  private final String responseClassName;
  private final int methodCode;
  private final MethodType type;
  private final long timeoutMillis;
  private final Marshaller<Q> requestMarshaller;
  private final Marshaller<R> responseMarshaller;
  private final ErrorMapper errorMapper;
  private final List<String> aliases;
  private final boolean idempotent;
  private final Map<Class<?>, Object> extensions;
  private final String protoService;
  private final Map<String, String> requestHeaders;
  private final List<String> routingHeaders;
  private final String dispatchKey;
  private final String displayName;

  private MethodDescriptor(Builder<Q, R> b) {
    this.serviceName = requireText(b.serviceName, "serviceName");
    this.serviceVersion = requireText(b.serviceVersion, "serviceVersion");
    this.methodName = requireText(b.methodName, "methodName");
    this.wireName = b.wireName != null ? b.wireName : serviceName + ':' + serviceVersion + '/' + methodName;
    this.responseClassName = b.responseClassName != null ? b.responseClassName : "";
    this.methodCode = b.methodCode;
    this.type = Objects.requireNonNull(b.type, "type");
    this.timeoutMillis = b.timeoutMillis;
    this.requestMarshaller = Objects.requireNonNull(b.requestMarshaller, "requestMarshaller");
    this.responseMarshaller = Objects.requireNonNull(b.responseMarshaller, "responseMarshaller");
    this.errorMapper = b.errorMapper;
    this.aliases = List.copyOf(b.aliases);
    if (b.idempotent && b.type != MethodType.REQUEST_RESPONSE) {
      throw new IllegalArgumentException("only a request-response method can be idempotent: " + methodName);
    }
    this.idempotent = b.idempotent;
    this.extensions = Map.copyOf(b.extensions);
    this.protoService = b.protoService;
    this.requestHeaders = Collections.unmodifiableMap(new LinkedHashMap<>(b.requestHeaders));
    this.routingHeaders = List.copyOf(b.routingHeaders);
    StringBuilder key = new StringBuilder(wireName);
    StringBuilder shown = new StringBuilder();
    for (String header : routingHeaders) {
      String value = requestHeaders.get(header);
      if (value == null) {
        throw new IllegalArgumentException("routing header " + header + " of " + methodName
            + " is not one of its request headers");
      }
      key.append(' ').append(value);
      shown.append(shown.length() == 0 ? "" : "/").append(value);
    }
    this.dispatchKey = key.toString();
    this.displayName = routingHeaders.isEmpty() ? wireName : shown.toString();
    int wireNameLength = wireName.getBytes(StandardCharsets.UTF_8).length;
    if (wireNameLength == 0 || wireNameLength > Short.MAX_VALUE) {
      throw new IllegalArgumentException("wire name must be 1..32767 UTF-8 bytes: " + wireName);
    }
    if (responseClassName.getBytes(StandardCharsets.UTF_8).length > Short.MAX_VALUE) {
      throw new IllegalArgumentException("response class name longer than 32767 bytes");
    }
    if (timeoutMillis <= 0 || timeoutMillis > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("timeout must be 1.." + Integer.MAX_VALUE + " ms: " + timeoutMillis);
    }
  }

  private static String requireText(String value, String what) {
    if (value == null || value.isEmpty()) {
      throw new IllegalArgumentException(what + " must not be empty");
    }
    return value;
  }

  /** A builder for a method whose request and response use these marshallers. */
  public static <Q, R> Builder<Q, R> newBuilder(Marshaller<Q> requestMarshaller, Marshaller<R> responseMarshaller) {
    return new Builder<>(requestMarshaller, responseMarshaller);
  }

  /** The service name, for example {@code demo.Inventory}. */
  public String serviceName() {
    return serviceName;
  }

  /** The service version, for example {@code 1.0}. */
  public String serviceVersion() {
    return serviceVersion;
  }

  /** The method name on the wire. */
  public String methodName() {
    return methodName;
  }

  /** The className of request frames: by default {@code service:version/method}. */
  public String wireName() {
    return wireName;
  }

  /** The className of response frames; empty when not set. */
  public String responseClassName() {
    return responseClassName;
  }

  /**
   * The method's code: the key a generated skeleton's {@code switch} dispatches on, so that a request finds
   * its implementation method without comparing names. It never travels on the wire (requests name their
   * method by className); 0 for methods of hand-built services, which dispatch on the descriptor itself.
   */
  public int methodCode() {
    return methodCode;
  }

  /** Whether the method expects a response. */
  public MethodType type() {
    return type;
  }

  /** The default timeout of a call, in milliseconds (a call's {@code CallOptions} may override it). */
  public long timeoutMillis() {
    return timeoutMillis;
  }

  /** The request marshaller. */
  public Marshaller<Q> requestMarshaller() {
    return requestMarshaller;
  }

  /** The response marshaller. */
  public Marshaller<R> responseMarshaller() {
    return responseMarshaller;
  }

  /** Maps failures to the method's declared exceptions; {@link ErrorMapper#IDENTITY} when it has none. */
  public ErrorMapper errorMapper() {
    return errorMapper;
  }

  /**
   * Other request classNames a server answers for this method besides {@link #wireName()}. Generated
   * methods list the binary name of their request record: a SOFABolt client always sends the Java class
   * name of its request object, so it can call the method by sending that record.
   */
  public List<String> aliases() {
    return aliases;
  }

  /**
   * Whether the method may run more than once ({@code @Idempotent}): a balancing client may then send it
   * again to another instance after its request was written. False for every other method.
   */
  public boolean idempotent() {
    return idempotent;
  }

  /**
   * What a protocol module keeps for this method under {@code type}, or {@code null} when the method has none:
   * bolt-json's {@code JsonForms}, say, which generated code adds when that module is on the class path. The
   * runtime itself reads none.
   */
  public <T> T extension(Class<T> type) {
    return type.cast(extensions.get(type));
  }

  /**
   * The full name of the service in the emitted {@code .proto} ({@code package.Service}), or {@code null} when
   * the method was built without one; with it, the method's HTTP route is {@link #httpPath()}.
   */
  public String protoService() {
    return protoService;
  }

  /**
   * The HTTP route of the method, {@code /<proto package>.<Service>/<rpc name>} (Connect's unary route), or
   * {@code null} without a {@link #protoService()}.
   */
  public String httpPath() {
    return protoService == null ? null : "/" + protoService + "/" + methodName;
  }

  /**
   * The header entries every request of this method carries, before those of its call's
   * {@link CallOptions#withHeader options} (a dialect that names its service and method in the header puts them
   * here). Empty unless set.
   */
  public Map<String, String> requestHeaders() {
    return requestHeaders;
  }

  /**
   * Of the {@link #requestHeaders()}, those by which a server tells this method apart from other methods that
   * share its {@link #wireName()} (a dialect whose every request carries one className); in their order, the
   * last naming the method and those before it its service (so that a refusal can say which was asked for).
   * Empty for a method whose wire name is its own.
   */
  public List<String> routingHeaders() {
    return routingHeaders;
  }

  /**
   * What a server finds this method by: its {@link #wireName()}, followed by the values of its
   * {@link #routingHeaders()} when it has any. Unique within a server.
   */
  public String dispatchKey() {
    return dispatchKey;
  }

  /**
   * The method as messages and logs name it: its wire name, or for a method told apart by its routing headers,
   * their values joined by {@code /} (the service and the method, say).
   */
  @Override
  public String toString() {
    return displayName;
  }

  /**
   * Turns the {@link BoltException} of a failed call into what the caller should see, for example a declared
   * exception of the method rebuilt from {@link BoltException#remoteClassName()} and {@link
   * BoltException#remoteMessage()}. Generated per method that declares exceptions.
   */
  @FunctionalInterface
  public interface ErrorMapper {

    /** Leaves every failure a {@code BoltException}. */
    ErrorMapper IDENTITY = e -> e;

    /** The exception to report instead of {@code e}; {@code e} itself when nothing maps. Never null. */
    Throwable map(BoltException e);
  }

  /**
   * Builds a {@link MethodDescriptor}.
   *
   * @param <Q> the request type
   * @param <R> the response type
   */
  public static final class Builder<Q, R> {
    private final Marshaller<Q> requestMarshaller;
    private final Marshaller<R> responseMarshaller;
    private String serviceName;
    private String serviceVersion = "1.0";
    private String methodName;
    private String wireName;
    private String responseClassName;
    private int methodCode;
    private MethodType type = MethodType.REQUEST_RESPONSE;
    private long timeoutMillis = 3000;
    private ErrorMapper errorMapper = ErrorMapper.IDENTITY;
    private final List<String> aliases = new ArrayList<>();
    private boolean idempotent;
    private final Map<Class<?>, Object> extensions = new HashMap<>();
    private String protoService;
    private final Map<String, String> requestHeaders = new LinkedHashMap<>();
    private final List<String> routingHeaders = new ArrayList<>();

    private Builder(Marshaller<Q> requestMarshaller, Marshaller<R> responseMarshaller) {
      this.requestMarshaller = Objects.requireNonNull(requestMarshaller, "requestMarshaller");
      this.responseMarshaller = Objects.requireNonNull(responseMarshaller, "responseMarshaller");
    }

    /** The service name (required). */
    public Builder<Q, R> serviceName(String serviceName) {
      this.serviceName = serviceName;
      return this;
    }

    /** The service version; {@code "1.0"} unless set. */
    public Builder<Q, R> serviceVersion(String serviceVersion) {
      this.serviceVersion = serviceVersion;
      return this;
    }

    /** The method name (required). */
    public Builder<Q, R> methodName(String methodName) {
      this.methodName = methodName;
      return this;
    }

    /**
     * The className of request frames, when it must differ from {@code service:version/method}, for
     * example to match the {@code interest()} of an existing SOFABolt UserProcessor.
     */
    public Builder<Q, R> wireName(String wireName) {
      this.wireName = wireName;
      return this;
    }

    /** The className of response frames; empty unless set. */
    public Builder<Q, R> responseClassName(String responseClassName) {
      this.responseClassName = responseClassName;
      return this;
    }

    /** The method code a generated skeleton dispatches on (see {@link MethodDescriptor#methodCode()}); 0 unless set. */
    public Builder<Q, R> methodCode(int methodCode) {
      if (methodCode < 0) {
        throw new IllegalArgumentException("method code must not be negative: " + methodCode);
      }
      this.methodCode = methodCode;
      return this;
    }

    /** The call type; {@link MethodType#REQUEST_RESPONSE} unless set. */
    public Builder<Q, R> type(MethodType type) {
      this.type = type;
      return this;
    }

    /** The default timeout in milliseconds; 3000 unless set. */
    public Builder<Q, R> timeoutMillis(long timeoutMillis) {
      this.timeoutMillis = timeoutMillis;
      return this;
    }

    /** Maps failures to declared exceptions; identity unless set. */
    public Builder<Q, R> errorMapper(ErrorMapper errorMapper) {
      this.errorMapper = Objects.requireNonNull(errorMapper, "errorMapper");
      return this;
    }

    /** Another request className a server answers for this method (see {@link MethodDescriptor#aliases()}). */
    public Builder<Q, R> alias(String className) {
      if (className == null || className.isEmpty()) {
        throw new IllegalArgumentException("alias must not be empty");
      }
      aliases.add(className);
      return this;
    }

    /**
     * Whether the method may run more than once (see {@code @Idempotent}); false unless set. Only a
     * request-response method can be.
     */
    public Builder<Q, R> idempotent(boolean idempotent) {
      this.idempotent = idempotent;
      return this;
    }

    /**
     * Keeps {@code value} for a protocol module under {@code type} (see {@link MethodDescriptor#extension}),
     * replacing what was kept there.
     */
    public <T> Builder<Q, R> extension(Class<T> type, T value) {
      extensions.put(Objects.requireNonNull(type, "type"), type.cast(Objects.requireNonNull(value, "value")));
      return this;
    }

    /** The full name of the service in the {@code .proto}, {@code package.Service}: it makes the HTTP route. */
    public Builder<Q, R> protoService(String protoService) {
      this.protoService = requireText(protoService, "protoService");
      return this;
    }

    /**
     * A header entry every request of the method carries (see {@link MethodDescriptor#requestHeaders()}); a
     * call's own headers with the same key replace it.
     */
    public Builder<Q, R> requestHeader(String key, String value) {
      requestHeaders.put(requireText(key, "header key"), Objects.requireNonNull(value, "header value"));
      return this;
    }

    /** Every entry of {@code headers} as a {@link #requestHeader request header}, in its order. */
    public Builder<Q, R> requestHeaders(Map<String, String> headers) {
      headers.forEach(this::requestHeader);
      return this;
    }

    /**
     * The request headers by which a server tells this method apart from others with the same wire name (see
     * {@link MethodDescriptor#routingHeaders()}); each must be one of its request headers.
     */
    public Builder<Q, R> routingHeaders(List<String> headers) {
      for (String header : headers) {
        routingHeaders.add(requireText(header, "routing header"));
      }
      return this;
    }

    /** The descriptor. */
    public MethodDescriptor<Q, R> build() {
      return new MethodDescriptor<>(this);
    }
  }
}
