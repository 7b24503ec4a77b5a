/**
 * The registry of generated services, for generated code: each {@code @BoltService} interface gets a
 * {@link io.boltgen.runtime.service.GeneratedService} listed in
 * {@code META-INF/services/io.boltgen.runtime.service.GeneratedService}, where
 * {@link io.boltgen.runtime.service.GeneratedService#of} finds it by interface. Binary-stable: generated code
 * compiled against one release runs on the next.
 */
package io.boltgen.runtime.service;
