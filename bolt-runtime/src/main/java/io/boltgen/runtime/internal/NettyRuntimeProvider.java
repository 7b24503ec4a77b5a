package io.boltgen.runtime.internal;

import io.boltgen.runtime.RuntimeProvider;
import io.boltgen.runtime.ServerContext;

/**
 * The runtime behind {@code BoltClient} and {@code BoltServer}, listed in
 * {@code META-INF/services/io.boltgen.runtime.RuntimeProvider}. Public only because
 * {@link java.util.ServiceLoader} needs it to be; not API.
 *
 * <p>Stateless and thread-safe.
 */
public final class NettyRuntimeProvider implements RuntimeProvider {

  /** Called by {@link java.util.ServiceLoader}. */
  public NettyRuntimeProvider() {}

  @Override
  public Client newClient(ClientConfig config) {
    return new ClientRuntime(config);
  }

  @Override
  public Server newServer(ServerConfig config) {
    return new ServerRuntime(config);
  }

  @Override
  public ServerContext currentServerContext() {
    return CurrentCall.get();
  }
}
