/**
 * A {@link io.boltgen.runtime.cluster.Registry} in etcd: {@link io.boltgen.registry.etcd.EtcdRegistry}, on
 * etcd's v3 HTTP/JSON gateway through the JDK's HTTP client, with no other dependency. Everything else in
 * this package is an implementation detail. See {@code docs/registry-etcd.md}.
 */
package io.boltgen.registry.etcd;
