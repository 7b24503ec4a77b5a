package io.boltgen.runtime.transport;

import io.boltgen.runtime.WireProtocol;

/**
 * The transport settings of one client or server, already validated by its builder.
 *
 * @param client whether connections are made by this side (heartbeats) or accepted (idle close)
 * @param protocol the format of requests this side sends (a server answers in its peer's format)
 * @param maxFrameLength the largest frame accepted, in bytes
 * @param lowWaterMark the write-buffer low water mark, in bytes
 * @param highWaterMark the write-buffer high water mark, in bytes
 * @param maxQueuedBytes the most bytes a connection's write queue may hold before calls are refused
 * @param heartbeatIntervalMillis client: send a heartbeat after this long without reading; 0 = never
 * @param heartbeatTimeoutMillis client: how long a heartbeat's ack may take
 * @param heartbeatMaxMisses client: unanswered heartbeats in a row that close the connection
 * @param idleTimeoutMillis server: close connections without traffic for this long; 0 = never
 * @param connectTimeoutMillis client: how long a connection attempt may take
 */
public record EndpointSettings(
    boolean client,
    WireProtocol protocol,
    int maxFrameLength,
    int lowWaterMark,
    int highWaterMark,
    long maxQueuedBytes,
    long heartbeatIntervalMillis,
    long heartbeatTimeoutMillis,
    int heartbeatMaxMisses,
    long idleTimeoutMillis,
    int connectTimeoutMillis) {}
