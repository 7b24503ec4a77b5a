package io.boltgen.spring;

import io.boltgen.runtime.BoltServer;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Starts the auto-configured {@link BoltServer} once the context is refreshed and stops it first when the
 * context closes: stopping drains (handlers running get up to {@code boltgen.server.shutdown-timeout} to
 * answer) before any bean, the client included, is destroyed. A stopped server is not started again.
 */
public final class BoltServerLifecycle implements SmartLifecycle {

  /** The property holding the port the server listens on, once it listens (like {@code local.server.port}). */
  public static final String LOCAL_PORT_PROPERTY = "local.boltgen.server.port";

  /** Late to start, early to stop, like Spring Boot's own web server. */
  public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 1024;

  private static final Logger log = LoggerFactory.getLogger(BoltServerLifecycle.class);

  private final BoltServer server;
  private final List<String> services;
  private final ConfigurableEnvironment environment;
  private volatile boolean running;
  private volatile boolean stopped;

  BoltServerLifecycle(BoltServer server, List<String> services, ConfigurableEnvironment environment) {
    this.server = server;
    this.services = List.copyOf(services);
    this.environment = environment;
  }

  @Override
  public synchronized void start() {
    if (running || stopped) {
      return;
    }
    server.start();
    running = true;
    environment.getPropertySources().addFirst(
        new MapPropertySource("boltgen.server.local", Map.of(LOCAL_PORT_PROPERTY, server.port())));
    // the runtime logs the one "listening" line, with the services it serves
  }

  @Override
  public void stop() {
    synchronized (this) {
      if (!running) {
        return;
      }
      running = false;
      stopped = true;
    }
    log.info("boltgen server on {} stopping: draining calls in flight", server.localAddress());
    server.close();
  }

  /** Whether the server is listening: false from the moment stopping begins. */
  @Override
  public boolean isRunning() {
    return running;
  }

  @Override
  public int getPhase() {
    return PHASE;
  }

  /** The server. */
  public BoltServer server() {
    return server;
  }

  /** The names of the services the server exports. */
  public List<String> services() {
    return services;
  }
}
