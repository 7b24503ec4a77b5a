/**
 * The small, stable API generated code is written against: method and service descriptors, the server
 * call a skeleton answers through, the {@link io.boltgen.runtime.service.ServiceInvoker} a skeleton
 * implements, and the {@link java.util.ServiceLoader} registry of generated services. Users rarely touch
 * it directly, except to build a service by hand with
 * {@link io.boltgen.runtime.service.ServiceDefinition#builder}.
 */
package io.boltgen.runtime.service;
