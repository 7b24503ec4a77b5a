/**
 * The runtime behind the API: not API, and package-private wherever Java allows (the one public type is the
 * {@link java.util.ServiceLoader} entry {@link io.boltgen.runtime.internal.NettyRuntimeProvider}). Any of it
 * may change in any release. It may use the API, the transport tier ({@code io.boltgen.runtime.call}) and
 * {@code support}, never {@code internal.http}, which plugs into it through the port protocol SPI
 * ({@code PortProtocol}, {@code PortConnection}, found by {@link java.util.ServiceLoader}). docs/runtime.md
 * maps where each step happens; by concern:
 *
 * <ul>
 *   <li>assembly: {@code NettyRuntimeProvider}, {@code ClientRuntime}, {@code ServerRuntime}, {@code Endpoint},
 *       {@code EndpointSettings}, {@code SharedResources}, {@code FileDescriptors}, {@code NettyArtifacts},
 *       {@code Shutdown}, {@code Channels};
 *   <li>the Bolt wire: {@code Bolt}, {@code FrameFormat}, {@code FrameDecoder}, {@code FrameBatch},
 *       {@code FrameEncoder}, {@code BoltFrame}, {@code BoltFrameException}, {@code FrameTooLargeException},
 *       {@code Crc32}, {@code HeadersCodec}, {@code WireNames}, {@code ErrorFrames}, {@code ErrorFormat},
 *       {@code HessianErrors}, {@code Answers};
 *   <li>connections: {@code BoltConnection}, {@code InboundHandler}, {@code WriteQueue}, {@code DeferredFrame},
 *       {@code OutboundRequest}, {@code ReadThrottle}, {@code FrameDeadline}, {@code IdleTimeout},
 *       {@code Heartbeat}, {@code ConnectionPool}, {@code Connector}, {@code ConnectionRefusal},
 *       {@code AcceptErrors}, {@code OutboundMemory}, {@code ConnectionEvents}, {@code TlsContexts},
 *       {@code TlsMaterial};
 *   <li>calls sent: {@code CallChannel}, {@code CallTarget}, {@code PendingCall}, {@code CallBudget},
 *       {@code CallFuture}, {@code CallTable}, {@code CallEnvironment}, {@code Interception},
 *       {@code RemoteErrors};
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
