/**
 * Calls to a service that runs as several instances ({@code scheme:///service}): its
 * {@link io.boltgen.runtime.internal.cluster.ClusterTarget} watches the service through its resolver, keeps one
 * {@link io.boltgen.runtime.internal.cluster.ClusterMember} per instance (its pool, health, ejection), picks one per
 * attempt ({@code Balancer}) and sends a call as attempts bounded by a {@code RetryBudget}; {@code Targets} reads
 * what a channel's target names, and {@code static:///} needs nothing running ({@code StaticResolver}). Not API:
 * public only to {@code internal.provider}, and may change in any release.
 *
 * <p>It uses the API, the cluster SPI and the internals below it ({@code internal}, {@code internal.wire}), never
 * {@code internal.server} or {@code internal.provider} ({@code ArchitectureTest}).
 */
package io.boltgen.runtime.internal.cluster;
