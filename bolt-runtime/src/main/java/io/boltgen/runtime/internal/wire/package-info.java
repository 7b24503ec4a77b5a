/**
 * The Bolt wire codec: where bytes become frames ({@link io.boltgen.runtime.internal.wire.FrameDecoder}) and
 * frames become bytes ({@link io.boltgen.runtime.internal.wire.FrameEncoder}), in a connection's
 * {@link io.boltgen.runtime.internal.wire.FrameFormat} (V1, V2, CRC); the header entries' layout
 * ({@code HeadersCodec}); and error answers as SOFABolt builds and reads them ({@code ErrorFrames},
 * {@code ErrorFormat}, {@code RemoteErrors}, and {@code HessianErrors}, the Hessian2 of SOFABolt's error bodies on bolt-hessian's reader and writer).
 * Not API: public only to the rest of {@code io.boltgen.runtime.internal}, and may change in any release.
 *
 * <p>It uses the API's values (statuses, {@code WireProtocol}, exceptions), Netty's buffers and codec base,
 * {@code support} and bolt-hessian, and knows nothing of connections, calls or servers: the rest of the internals uses it, never
 * the reverse ({@code ArchitectureTest}).
 */
package io.boltgen.runtime.internal.wire;
