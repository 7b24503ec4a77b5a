/**
 * HTTP on the Bolt port (module {@code bolt-http}): HTTP/1.1 and HTTP/2 (with and without TLS), Connect's unary and
 * streaming protocols as streams of the one server call, {@code /openapi.json} and the console. It plugs into the
 * core through the port protocol SPI alone ({@link io.boltgen.runtime.internal.PortProtocol}, found by
 * {@link java.util.ServiceLoader} as
 * {@link io.boltgen.runtime.internal.http.HttpProtocol}; {@link io.boltgen.runtime.internal.PortConnection}), and
 * runs its calls through {@link io.boltgen.runtime.call.ServerCalls}; the core never uses it. By concern:
 *
 * <ul>
 *   <li>telling and taking over a connection: {@code HttpProtocol}, {@code ProtocolSniffer},
 *       {@code HttpPipelines}, {@code HttpRefusal};
 *   <li>requests and answers in order, bounded: {@code HttpExchanges}, {@code HttpReadDeadline};
 *   <li>the Connect RPC protocol (named {@code ConnectRpc*}: "connect" alone would read as connecting over TCP):
 *       {@code ConnectRpcCalls} (routing, headers), {@code ConnectRpcStream} (one unary call),
 *       {@code ConnectStreamingStream} (one call of a streaming method), {@code ConnectRpcErrors} (codes, statuses,
 *       error bodies);
 *   <li>a body's length-prefixed messages (Connect's envelopes, gRPC's messages): {@code LengthPrefixedMessages}, and
 *       a body read as it arrives, on demand: {@code StreamedRequest}, {@code ArrivingBody};
 *   <li>what {@code GET} answers: {@code HttpResources}.
 * </ul>
 *
 * <p>Not API: any of it may change in any release.
 */
package io.boltgen.runtime.internal.http;
