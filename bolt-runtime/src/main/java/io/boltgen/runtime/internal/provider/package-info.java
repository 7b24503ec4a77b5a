/**
 * The runtime behind the API, assembled: {@link io.boltgen.runtime.internal.provider.NettyRuntimeProvider} (the
 * {@link java.util.ServiceLoader} entry of {@link io.boltgen.runtime.RuntimeProvider}, its one public type) makes
 * a {@code ClientRuntime} (pools, clusters, the shared threads) for each {@code BoltClient} and a
 * {@code ServerRuntime} (the listening channel, registration, drain) for each {@code BoltServer}. Not API; may
 * change in any release. It uses every internal package; none uses it ({@code ArchitectureTest}).
 */
package io.boltgen.runtime.internal.provider;
