package io.boltgen.spring;

import io.boltgen.annotation.BoltCallback;
import io.boltgen.runtime.BoltChannel;
import io.boltgen.runtime.CallOptions;
import io.boltgen.runtime.ClientCall;
import io.boltgen.runtime.MethodDescriptor;
import java.net.SocketAddress;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * A channel whose calls carry the options configured for their method, else for their service
 * ({@code boltgen.client.services[...].timeout}, {@code .max-attempts}, {@code .methods.<name>.*}): what
 * {@code stub.withTimeout(timeout)} does, for a stub known only by its interface. An option the stub already set
 * on the call wins over the configured one; a configured one wins over the annotations' ({@code @BoltMethod},
 * {@code @BoltService}, {@code @Idempotent}).
 */
final class ConfiguredChannel implements BoltChannel {

  private final BoltChannel delegate;
  private final CallOptions serviceOptions;
  private final Map<String, CallOptions> methodOptions; // by method name, already over the service's

  ConfiguredChannel(BoltChannel delegate, CallOptions serviceOptions, Map<String, CallOptions> methodOptions) {
    this.delegate = delegate;
    this.serviceOptions = serviceOptions;
    this.methodOptions = methodOptions;
  }

  private CallOptions apply(MethodDescriptor<?, ?> method, CallOptions options) {
    CallOptions configured = methodOptions.isEmpty() ? serviceOptions
        : methodOptions.getOrDefault(method.methodName(), serviceOptions);
    if (options == CallOptions.DEFAULT) {
      return configured;
    }
    CallOptions merged = options;
    if (merged.timeoutMillis() == 0 && configured.timeoutMillis() != 0) {
      merged = merged.withTimeoutMillis(configured.timeoutMillis());
    }
    if (merged.maxAttempts() == 0 && configured.maxAttempts() != 0) {
      merged = merged.withMaxAttempts(configured.maxAttempts());
    }
    if (merged.idempotent() == null && configured.idempotent() != null) {
      merged = merged.withIdempotent(configured.idempotent());
    }
    return merged;
  }

  @Override
  public <Q, R> R invokeSync(MethodDescriptor<Q, R> method, Q request, CallOptions options) {
    return delegate.invokeSync(method, request, apply(method, options));
  }

  @Override
  public <Q, R> CompletableFuture<R> invokeFuture(MethodDescriptor<Q, R> method, Q request, CallOptions options) {
    return delegate.invokeFuture(method, request, apply(method, options));
  }

  @Override
  public <Q, R> void invokeCallback(
      MethodDescriptor<Q, R> method, Q request, CallOptions options, BoltCallback<? super R> callback) {
    delegate.invokeCallback(method, request, apply(method, options), callback);
  }

  @Override
  public <Q> void invokeOneway(MethodDescriptor<Q, ?> method, Q request, CallOptions options) {
    delegate.invokeOneway(method, request, apply(method, options));
  }

  @Override
  public <Q, R> ClientCall<Q, R> newCall(MethodDescriptor<Q, R> method, CallOptions options) {
    return delegate.newCall(method, apply(method, options));
  }

  @Override
  public SocketAddress remoteAddress() {
    return delegate.remoteAddress();
  }
}
