/**
 * The Bolt wire protocol: where bytes become frames and frames become bytes. {@link
 * io.boltgen.runtime.protocol.FrameDecoder} splits the inbound stream into {@link
 * io.boltgen.runtime.protocol.BoltFrame}s (RpcProtocol V1 and V2, CRC32 verified) and hands every whole
 * frame of a read on as one {@link io.boltgen.runtime.protocol.FrameBatch}; {@link
 * io.boltgen.runtime.protocol.FrameEncoder} writes requests, responses and heartbeats into one exactly
 * sized pooled buffer. Layouts are in protocol.md and docs/wire-format.md.
 *
 * <p>Low-level: public so that tests and tools can speak raw Bolt, but not part of the supported API.
 */
package io.boltgen.runtime.protocol;
