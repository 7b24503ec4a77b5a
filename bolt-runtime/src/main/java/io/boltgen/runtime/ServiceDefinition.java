package io.boltgen.runtime;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Flow;

/**
 * A service ready to be registered with a server (or with a client, to answer duplex calls): its
 * descriptor and the invoker that runs its methods. Generated code builds one in
 * {@code XxxBolt.bind(implementation)}; {@link #builder} builds one by hand.
 *
 * <p>Immutable; its builder is not thread-safe.
 */
public final class ServiceDefinition {

  private final ServiceDescriptor descriptor;
  private final ServiceInvoker invoker;

  private ServiceDefinition(ServiceDescriptor descriptor, ServiceInvoker invoker) {
    this.descriptor = Objects.requireNonNull(descriptor, "descriptor");
    this.invoker = Objects.requireNonNull(invoker, "invoker");
  }

  /** A definition whose methods {@code invoker} runs. */
  public static ServiceDefinition of(ServiceDescriptor descriptor, ServiceInvoker invoker) {
    return new ServiceDefinition(descriptor, invoker);
  }

  /** Starts a hand-built definition of service {@code name} at {@code version}. */
  public static Builder builder(String name, String version) {
    return new Builder(name, version);
  }

  /** The service's descriptor. */
  public ServiceDescriptor descriptor() {
    return descriptor;
  }

  /** What runs the service's methods. */
  public ServiceInvoker invoker() {
    return invoker;
  }

  /**
   * Builds a {@link ServiceDefinition} from one handler per method. Requests find their handler by their
   * method's descriptor, so the methods need no method codes.
   */
  public static final class Builder {
    private final String name;
    private final String version;
    private final List<MethodDescriptor<?, ?>> methods = new ArrayList<>();
    private final IdentityHashMap<MethodDescriptor<?, ?>, MethodHandler<Object>> handlers = new IdentityHashMap<>();

    private Builder(String name, String version) {
      this.name = Objects.requireNonNull(name, "name");
      this.version = Objects.requireNonNull(version, "version");
    }

    /**
     * Adds {@code method}, whose caller sends one request, served by {@code handler}.
     *
     * @throws IllegalArgumentException if the method streams its requests: add it with {@link #streamingMethod}
     */
    public <Q> Builder method(MethodDescriptor<Q, ?> method, MethodHandler<? super Q> handler) {
      if (method.type().streamsRequests()) {
        throw new IllegalArgumentException(method.wireName() + " is " + method.type() + ": its handler is given"
            + " the caller's messages as a Flow.Publisher; add it with streamingMethod");
      }
      return add(method, handler);
    }

    /**
     * Adds {@code method}, whose caller streams its requests ({@link MethodType#CLIENT_STREAMING} or
     * {@link MethodType#BIDI_STREAMING}), served by {@code handler}: it is given the caller's messages as a
     * {@link Flow.Publisher} as soon as the call starts, each message delivered as its subscriber asks, and
     * answers through the call ({@link ServerCall#respond}, or {@link ServerCall#respondStream} for a
     * bidirectional method).
     *
     * @throws IllegalArgumentException if the method takes one request: add it with {@link #method}
     */
    public <Q> Builder streamingMethod(MethodDescriptor<Q, ?> method,
        MethodHandler<? super Flow.Publisher<Q>> handler) {
      if (!method.type().streamsRequests()) {
        throw new IllegalArgumentException(method.wireName() + " is " + method.type() + ": its caller sends one"
            + " request; add it with method");
      }
      return add(method, handler);
    }

    @SuppressWarnings("unchecked") // the runtime hands a handler only requests its method's marshaller read
    private Builder add(MethodDescriptor<?, ?> method, MethodHandler<?> handler) {
      Objects.requireNonNull(handler, "handler");
      if (handlers.putIfAbsent(Objects.requireNonNull(method, "method"), (MethodHandler<Object>) handler) != null) {
        throw new IllegalArgumentException(method.wireName() + " is added twice");
      }
      methods.add(method);
      return this;
    }

    /** The definition. */
    public ServiceDefinition build() {
      IdentityHashMap<MethodDescriptor<?, ?>, MethodHandler<Object>> table = new IdentityHashMap<>(handlers);
      return new ServiceDefinition(
          ServiceDescriptor.of(name, version, methods),
          (methodCode, request, call) -> table.get(call.context().method()).handle(request, call));
    }
  }
}
