package io.boltgen.bench.service;

/**
 * What an instance of {@link ClusterEchoService} answers.
 *
 * @param instance the answering instance's index among the servers of one benchmark (0-based)
 * @param payload the request's payload, unchanged
 */
@SuppressWarnings("ArrayRecordComponent") // proto bytes are a byte[] in boltgen's records; replies are never compared
public record ClusterEchoReply(int instance, byte[] payload) {}
