package io.boltgen.micrometer;

import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.ServerContext;
import io.micrometer.observation.transport.Kind;
import io.micrometer.observation.transport.ReceiverContext;
import java.net.SocketAddress;
import java.util.Map;

/**
 * The observation context of one call a server (or a client, serving its server's call back) serves. Its
 * carrier is the request's Bolt header map: a tracing handler's propagator reads its fields
 * ({@code traceparent}, {@code tracestate}) there and makes the caller's span this call's parent.
 *
 * <p>Written by the interceptor on the handler's thread and by its listener on the answering thread; the
 * status is set before the observation stops.
 */
public class BoltServerObservationContext extends ReceiverContext<Map<String, String>> {

  private final ServerContext call;
  private volatile ResponseStatus status;

  /** The context of {@code call}; its headers are the carrier. */
  public BoltServerObservationContext(ServerContext call) {
    super((headers, key) -> headers == null ? null : headers.get(key), Kind.SERVER);
    this.call = call;
    setCarrier(call.headers());
    setRemoteServiceAddress(BoltKeyValues.address(call.remoteAddress()));
  }

  /** The runtime's view of the call (request id, caller's deadline, connection…), for custom conventions. */
  public ServerContext getServerContext() {
    return call;
  }

  /** The method called. */
  public MethodDescriptor<?, ?> getMethod() {
    return call.method();
  }

  /** The caller's address. */
  public SocketAddress getRemoteAddress() {
    return call.remoteAddress();
  }

  /** The answer's status; {@code null} until the call was answered. */
  public ResponseStatus getStatus() {
    return status;
  }

  /** Sets the answer's status (the interceptor does, before the observation stops). */
  public void setStatus(ResponseStatus status) {
    this.status = status;
  }
}
