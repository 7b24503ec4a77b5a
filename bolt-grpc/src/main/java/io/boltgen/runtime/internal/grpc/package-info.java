/**
 * gRPC on the Bolt port (module {@code bolt-grpc}): gRPC's HTTP/2 protocol, with protobuf and JSON messages, as
 * streams of the one server call. It plugs into {@code bolt-http}'s HTTP/2 as a stream protocol
 * ({@link io.boltgen.runtime.internal.http.Http2StreamProtocol}, found by {@link java.util.ServiceLoader} as
 * {@link io.boltgen.runtime.internal.grpc.GrpcProtocol}), and runs its calls through
 * {@link io.boltgen.runtime.call.ServerCalls}. By concern:
 *
 * <ul>
 *   <li>which streams are gRPC's, their headers checked and routed: {@code GrpcCalls};
 *   <li>one call: its request read, its answer written: {@code GrpcServerStream};
 *   <li>length-prefixed messages, limits, gzip: bolt-http's {@code LengthPrefixedMessages}, shared with Connect;
 *   <li>status, message and details in trailers: {@code GrpcStatus};
 *   <li>health checks: {@code GrpcHealth}.
 * </ul>
 *
 * <p>Not API: any of it may change in any release.
 */
package io.boltgen.runtime.internal.grpc;
