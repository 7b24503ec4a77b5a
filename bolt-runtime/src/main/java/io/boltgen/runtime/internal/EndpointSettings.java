package io.boltgen.runtime.internal;

import io.boltgen.runtime.WireProtocol;

/**
 * The transport settings of one client or server, already validated by its builder.
 *
 * @param client whether connections are made by this side (heartbeats) or accepted (idle close, throttled reads)
 * @param protocol the format of requests this side sends (a server answers in its peer's format)
 * @param maxFrameLength the largest frame accepted, in bytes
 * @param peerMaxFrameLength the largest frame the peer accepts, in bytes: a larger request or answer fails
 *     alone before it is written
 * @param lowWaterMark the write-buffer low water mark, in bytes
 * @param highWaterMark the write-buffer high water mark, in bytes
 * @param maxQueuedBytes the most encoded bytes a connection's write queue holds; a call that would exceed it fails
 * @param maxRequestsPerConnection server: requests (and answers) of one connection open before its reads pause
 * @param frameTimeoutMillis how long a frame may take from its first byte to its last; 0 = no limit
 * @param heartbeatIntervalMillis client: send a heartbeat after this long without reading; 0 = never
 * @param heartbeatTimeoutMillis client: how long a heartbeat's ack may take
 * @param heartbeatMaxMisses client: unanswered heartbeats in a row that close the connection
 * @param idleTimeoutMillis server: close connections without traffic for this long; 0 = never
 * @param connectTimeoutMillis client: how long a connection attempt may take
 * @param maxConnections server: connections open at once; more are answered busy and closed
 */
public record EndpointSettings(
    boolean client,
    WireProtocol protocol,
    int maxFrameLength,
    int peerMaxFrameLength,
    int lowWaterMark,
    int highWaterMark,
    long maxQueuedBytes,
    int maxRequestsPerConnection,
    long frameTimeoutMillis,
    long heartbeatIntervalMillis,
    long heartbeatTimeoutMillis,
    int heartbeatMaxMisses,
    long idleTimeoutMillis,
    int connectTimeoutMillis,
    int maxConnections,
    boolean http) {}
