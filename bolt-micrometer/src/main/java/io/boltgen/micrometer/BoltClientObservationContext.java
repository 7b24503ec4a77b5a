package io.boltgen.micrometer;

import io.boltgen.runtime.ClientInterceptor;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.ResponseStatus;
import io.micrometer.observation.transport.Kind;
import io.micrometer.observation.transport.SenderContext;
import java.net.SocketAddress;

/**
 * The observation context of one call a client (or a server, calling its client back) sends. Its carrier is
 * the intercepted call while the observation starts: a tracing handler's propagator writes its fields
 * ({@code traceparent}, {@code tracestate}) with {@link ClientInterceptor.Call#header}, so they travel in the
 * request's Bolt header map. The carrier is cleared once the call is sent (headers can no longer be added).
 *
 * <p>Written by the interceptor on the calling thread and by its listener on the completing thread; the
 * status is set before the observation stops.
 */
public class BoltClientObservationContext extends SenderContext<ClientInterceptor.Call> {

  private final MethodDescriptor<?, ?> method;
  private final SocketAddress remoteAddress;
  private volatile ResponseStatus status;

  /** The context of {@code call}, its carrier until the call is sent. */
  public BoltClientObservationContext(ClientInterceptor.Call call) {
    super(BoltClientObservationContext::setHeader, Kind.CLIENT);
    this.method = call.method();
    this.remoteAddress = call.remoteAddress();
    setCarrier(call);
    setRemoteServiceAddress(BoltKeyValues.address(remoteAddress));
  }

  private static void setHeader(ClientInterceptor.Call call, String key, String value) {
    if (call != null) {
      call.header(key, value);
    }
  }

  /** The method called. */
  public MethodDescriptor<?, ?> getMethod() {
    return method;
  }

  /** Where the call goes. */
  public SocketAddress getRemoteAddress() {
    return remoteAddress;
  }

  /** The call's outcome; {@code null} until it completed. */
  public ResponseStatus getStatus() {
    return status;
  }

  /** Sets the call's outcome (the interceptor does, before the observation stops). */
  public void setStatus(ResponseStatus status) {
    this.status = status;
  }
}
