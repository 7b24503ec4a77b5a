/**
 * The runtime behind the API: not API, and package-private wherever Java allows (the one public type is the
 * {@link java.util.ServiceLoader} entry {@link io.boltgen.runtime.internal.NettyRuntimeProvider}). Any of it
 * may change in any release. docs/runtime.md maps where each step happens; in short:
 *
 * <ul>
 *   <li>assembly: {@code ClientRuntime}, {@code ServerRuntime}, {@code Endpoint}, {@code SharedResources};
 *   <li>the wire: {@code Bolt}, {@code FrameFormat}, {@code FrameDecoder}, {@code FrameEncoder},
 *       {@code BoltFrame}, {@code HeadersCodec}, {@code ErrorFrames}, {@code ErrorFormat},
 *       {@code HessianErrors};
 *   <li>connections: {@code BoltConnection}, {@code InboundHandler}, {@code WriteQueue},
 *       {@code OutboundRequest}, {@code ReadThrottle}, {@code FrameDeadline}, {@code Heartbeat},
 *       {@code ConnectionPool}, {@code ConnectionRefusal}, {@code AcceptErrors}, {@code OutboundMemory};
 *   <li>calls sent: {@code CallChannel}, {@code PendingCall}, {@code CallFuture}, {@code CallTable},
 *       {@code CallEnvironment}, {@code RemoteErrors};
 *   <li>requests served: {@code RequestDispatcher}, {@code MethodTable}, {@code MethodEntry},
 *       {@code InboundRequest}, {@code InboundAnswer}, {@code InboundCall}, {@code WorkerPool};
 *   <li>helpers: {@code LogText}, {@code Channels}, {@code Shutdown} (and, shared with the registries,
 *       {@code io.boltgen.runtime.support}).
 * </ul>
 */
package io.boltgen.runtime.internal;
