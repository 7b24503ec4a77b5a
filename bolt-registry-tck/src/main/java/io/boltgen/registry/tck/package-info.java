/**
 * The contract of {@link io.boltgen.runtime.cluster.Registry}, as tests a registry module extends, and real
 * etcd processes for tests ({@link io.boltgen.registry.tck.EtcdProcess}, {@link io.boltgen.registry.tck.EtcdCluster}).
 */
package io.boltgen.registry.tck;
