/**
 * The runtime behind the API, below its assembly ({@code internal.provider}), its clusters
 * ({@code internal.cluster}) and its served requests ({@code internal.server}), above its wire codec
 * ({@code internal.wire}): connections and the calls sent over them. Not API, and package-private wherever Java
 * allows: a type is public only because a package above uses it, or for the port protocol SPI
 * ({@code PortProtocol}, {@code PortConnection}, {@code Channels}) through which {@code internal.http} (module
 * bolt-http, found by {@link java.util.ServiceLoader}) plugs in. Any of it may change in any release. It may use
 * the API, the transport tier ({@code io.boltgen.runtime.call}), {@code support} and {@code internal.wire}, never
 * the packages above it ({@code ArchitectureTest}). docs/runtime.md maps where each step happens; by concern:
 *
 * <ul>
 *   <li>what a client or server owns: {@code Endpoint}, {@code EndpointSettings}, {@code SharedResources},
 *       {@code FileDescriptors}, {@code NettyArtifacts}, {@code Shutdown}, {@code Channels};
 *   <li>what a served or sent call adds to the wire: {@code WireNames}, {@code Answers}, {@code DeferredFrame};
 *   <li>connections: {@code BoltConnection}, {@code InboundHandler}, {@code WriteQueue},
 *       {@code OutboundRequest}, {@code ReadThrottle}, {@code FrameDeadline}, {@code IdleTimeout},
 *       {@code Heartbeat}, {@code ConnectionPool}, {@code Connector}, {@code ConnectionRefusal},
 *       {@code AcceptErrors}, {@code OutboundMemory}, {@code ConnectionEvents}, {@code TlsContexts},
 *       {@code TlsMaterial};
 *   <li>calls sent: {@code CallChannel}, {@code CallTarget}, {@code PendingCall} (the API's {@code ClientCall}
 *       of a unary method), {@code CallBudget}, {@code StreamListener}, {@code Callbacks}, {@code SyncWait},
 *       {@code CallFuture},
 *       {@code CallTable}, {@code CallEnvironment}, {@code Interception};
 *   <li>what the served side above takes a connection's requests through: {@code RequestHandler};
 *   <li>other protocols on the port: {@code PortProtocol}, {@code PortConnection}.
 * </ul>
 */
package io.boltgen.runtime.internal;
