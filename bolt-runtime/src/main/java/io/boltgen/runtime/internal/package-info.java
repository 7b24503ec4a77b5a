/**
 * The runtime behind the API: not API, and package-private wherever Java allows (public are the
 * {@link java.util.ServiceLoader} entry {@link io.boltgen.runtime.internal.NettyRuntimeProvider} and the port
 * protocol SPI below). Any of it
 * may change in any release. It may use the API, the transport tier ({@code io.boltgen.runtime.call}) and
 * {@code support}, never {@code internal.http}, which plugs into it through the port protocol SPI
 * ({@code PortProtocol}, {@code PortConnection}, found by {@link java.util.ServiceLoader}). docs/runtime.md
 * maps where each step happens; by concern:
 *
 * <ul>
 *   <li>assembly: {@code NettyRuntimeProvider}, {@code ClientRuntime}, {@code ServerRuntime}, {@code Endpoint},
 *       {@code EndpointSettings}, {@code SharedResources}, {@code FileDescriptors}, {@code NettyArtifacts},
 *       {@code Shutdown}, {@code Channels};
 *   <li>the Bolt wire: its codec is the package {@code internal.wire}, which imports nothing of this one;
 *       here are what a served or sent call adds to it, {@code WireNames} and {@code Answers};
 *   <li>connections: {@code BoltConnection}, {@code InboundHandler}, {@code WriteQueue}, {@code DeferredFrame},
 *       {@code OutboundRequest}, {@code ReadThrottle}, {@code FrameDeadline}, {@code IdleTimeout},
 *       {@code Heartbeat}, {@code ConnectionPool}, {@code Connector}, {@code ConnectionRefusal},
 *       {@code AcceptErrors}, {@code OutboundMemory}, {@code ConnectionEvents}, {@code TlsContexts},
 *       {@code TlsMaterial};
 *   <li>calls sent: {@code CallChannel}, {@code CallTarget}, {@code PendingCall}, {@code CallBudget},
 *       {@code CallFuture}, {@code CallTable}, {@code CallEnvironment}, {@code Interception};
 *   <li>clusters: {@code ClusterTarget}, {@code ClusterMember}, {@code Balancer}, {@code RetryBudget},
 *       {@code Targets}, {@code StaticResolver};
 *   <li>Bolt requests served, as streams of the one server call ({@code io.boltgen.runtime.call}):
 *       {@code RequestHandler}, {@code RequestDispatcher}, {@code MethodTable}, {@code MethodEntry},
 *       {@code BoltServerStream}, {@code WorkerPool};
 *   <li>other protocols on the port: {@code PortProtocol}, {@code PortConnection} (HTTP is in
 *       {@code internal.http}).
 * </ul>
 */
package io.boltgen.runtime.internal;
