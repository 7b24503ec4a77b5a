/**
 * Transport: the process-wide IO threads and timer ({@link io.boltgen.runtime.transport.SharedResources}),
 * the channel pipeline, and {@link io.boltgen.runtime.transport.BoltConnection}, which joins one Netty
 * channel to its call table, its write queue (many frames per flush) and, on clients, its heartbeat.
 *
 * <p>Threads: the IO threads ({@code boltgen-io-*}) run the pipeline, decode frames, complete calls and
 * drain write queues; they never run user code unless a service or callback asked for a direct executor.
 * The timer thread ({@code boltgen-timer}) only fires timeouts.
 *
 * <p>Internal: not API.
 */
package io.boltgen.runtime.transport;
