package io.boltgen.spring;

import io.boltgen.annotation.BoltCallback;
import io.boltgen.runtime.BoltChannel;
import io.boltgen.runtime.CallOptions;
import io.boltgen.runtime.MethodDescriptor;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * A channel whose calls carry a configured timeout ({@link CallOptions#withTimeout}) unless the stub already
 * set one: what {@code stub.withTimeout(timeout)} does, for a stub known only by its interface.
 */
final class TimeoutChannel implements BoltChannel {

  private final BoltChannel delegate;
  private final Duration timeout;
  // the options of a call that set nothing, made once (this also rejects a bad timeout at startup)
  private final CallOptions defaults;

  TimeoutChannel(BoltChannel delegate, Duration timeout) {
    this.delegate = delegate;
    this.timeout = timeout;
    this.defaults = CallOptions.DEFAULT.withTimeout(timeout);
  }

  private CallOptions apply(CallOptions options) {
    if (options == CallOptions.DEFAULT) {
      return defaults;
    }
    return options.timeoutMillis() == 0 ? options.withTimeout(timeout) : options;
  }

  @Override
  public <Q, R> R invokeSync(MethodDescriptor<Q, R> method, Q request, CallOptions options) {
    return delegate.invokeSync(method, request, apply(options));
  }

  @Override
  public <Q, R> CompletableFuture<R> invokeFuture(MethodDescriptor<Q, R> method, Q request, CallOptions options) {
    return delegate.invokeFuture(method, request, apply(options));
  }

  @Override
  public <Q, R> void invokeCallback(
      MethodDescriptor<Q, R> method, Q request, CallOptions options, BoltCallback<? super R> callback) {
    delegate.invokeCallback(method, request, apply(options), callback);
  }

  @Override
  public <Q> void invokeOneway(MethodDescriptor<Q, ?> method, Q request, CallOptions options) {
    delegate.invokeOneway(method, request, apply(options));
  }

  @Override
  public SocketAddress remoteAddress() {
    return delegate.remoteAddress();
  }
}
