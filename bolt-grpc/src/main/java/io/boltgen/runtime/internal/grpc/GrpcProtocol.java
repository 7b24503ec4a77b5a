package io.boltgen.runtime.internal.grpc;

import io.boltgen.runtime.ServiceDefinition;
import io.boltgen.runtime.ServiceDescriptor;
import io.boltgen.runtime.call.ServerCalls;
import io.boltgen.runtime.internal.http.Http2StreamProtocol;
import io.boltgen.runtime.internal.http.HttpCallProtocol;
import java.util.List;

/**
 * gRPC as a protocol of the HTTP/2 streams on the Bolt port of a server that serves HTTP, and gRPC-Web as one of its
 * whole HTTP requests: found by {@link java.util.ServiceLoader} (this module's only public type; not API).
 *
 * <p>Thread-safe: stateless.
 */
public final class GrpcProtocol implements Http2StreamProtocol.Factory, HttpCallProtocol.Factory {

  /** For {@link java.util.ServiceLoader}. */
  public GrpcProtocol() {}

  @Override
  public Http2StreamProtocol create(ServerCalls calls, int maxMessageBytes, long frameTimeoutMillis) {
    return new GrpcCalls(calls, maxMessageBytes, frameTimeoutMillis);
  }

  /** gRPC's server reflection, v1 and v1alpha ({@link GrpcReflection}). */
  @Override
  public List<ServiceDefinition> services(List<ServiceDescriptor> served) {
    return GrpcReflection.services(served);
  }

  /** gRPC-Web, of whole HTTP requests over HTTP/1.1 and HTTP/2 ({@link GrpcWebCalls}). */
  @Override
  public HttpCallProtocol create(ServerCalls calls, int maxMessageBytes) {
    return new GrpcWebCalls(calls, maxMessageBytes);
  }
}
