/**
 * Helpers that boltgen's modules share, so that each rule exists once: a log limited per cause
 * ({@link io.boltgen.runtime.support.RateLimitedLog}), {@code host:port}
 * ({@link io.boltgen.runtime.support.HostAndPort}) and text quoted for messages
 * ({@link io.boltgen.runtime.support.MessageText}).
 *
 * <p>Not API: every type here is {@link io.boltgen.runtime.support.Internal} and may change in any release.
 * This package depends on the JDK and SLF4J only, never on another package of the runtime, and
 * no API signature mentions it.
 */
package io.boltgen.runtime.support;
