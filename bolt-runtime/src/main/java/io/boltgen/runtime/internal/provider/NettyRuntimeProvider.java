package io.boltgen.runtime.internal.provider;

import io.boltgen.runtime.NettyVersion;
import io.boltgen.runtime.RuntimeProvider;
import io.boltgen.runtime.ServerContext;
import io.boltgen.runtime.call.ServerCalls;
import io.boltgen.runtime.internal.NettyArtifacts;
import java.util.Map;

/**
 * The runtime behind {@code BoltClient} and {@code BoltServer}, listed in
 * {@code META-INF/services/io.boltgen.runtime.RuntimeProvider}. Public only because
 * {@link java.util.ServiceLoader} needs it to be; not API.
 *
 * <p>Each client and server is made only once the Netty on the class path passed
 * {@link NettyVersion#requireSupported()}: before {@code ClientRuntime} or {@code ServerRuntime} (and the
 * Netty classes they use) is loaded, so an older Netty fails with that check's message instead of a
 * {@link NoSuchMethodError} later. Neither {@link java.util.ServiceLoader} nor this class touches Netty
 * before that (the check itself loads only {@code io.netty.util.Version}).
 *
 * <p>Stateless and thread-safe.
 */
public final class NettyRuntimeProvider implements RuntimeProvider {

  /** Called by {@link java.util.ServiceLoader}. */
  public NettyRuntimeProvider() {}

  @Override
  public Client newClient(ClientConfig config) {
    NettyVersion.requireSupported();
    return new ClientRuntime(config);
  }

  @Override
  public Server newServer(ServerConfig config) {
    NettyVersion.requireSupported();
    return new ServerRuntime(config);
  }

  @Override
  public ServerContext currentServerContext() {
    return ServerCalls.current();
  }

  @Override
  public Map<String, String> nettyVersions() {
    return NettyArtifacts.versions(NettyRuntimeProvider.class.getClassLoader());
  }
}
