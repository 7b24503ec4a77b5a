/**
 * A {@link io.boltgen.runtime.cluster.Registry} on ZooKeeper through Apache Curator:
 * {@link io.boltgen.registry.zookeeper.ZooKeeperRegistry}. The node layout, the re-registration after a lost
 * session, the bounds and the dependencies are described in {@code docs/registry-zookeeper.md}.
 */
package io.boltgen.registry.zookeeper;
