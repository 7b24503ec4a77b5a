/**
 * Clusters: where a service's instances are found ({@link io.boltgen.runtime.cluster.NameResolver}), where a
 * server announces itself ({@link io.boltgen.runtime.cluster.Registry}), and how a client spreads calls over
 * the instances it found ({@link io.boltgen.runtime.cluster.BalancingPolicy}). Registries live in their own
 * modules ({@code bolt-registry-etcd}, {@code bolt-registry-zookeeper}) and store each instance in one form,
 * bolt-json's {@code io.boltgen.json.InstanceRecord}; a fixed list of addresses
 * ({@code static:///host:port,host:port}) needs none. This package depends on the JDK and the runtime's
 * {@code support} helpers only.
 */
package io.boltgen.runtime.cluster;
