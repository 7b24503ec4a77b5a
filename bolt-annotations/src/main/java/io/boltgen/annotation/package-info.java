/**
 * What a service interface is written with: {@link io.boltgen.annotation.BoltService} and friends, plus
 * {@link io.boltgen.annotation.BoltCallback}, the one non-annotation type a service signature may name.
 *
 * <p>This package has no dependencies, so an API jar holding only interfaces and records needs nothing but
 * it. Every annotation has {@code CLASS} retention: the annotation processor reads them at compile time
 * and nothing reads them at run time.
 */
package io.boltgen.annotation;
