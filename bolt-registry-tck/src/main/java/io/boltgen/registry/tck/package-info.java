/** The contract of {@link io.boltgen.runtime.cluster.Registry}, as tests a registry module extends. */
package io.boltgen.registry.tck;
