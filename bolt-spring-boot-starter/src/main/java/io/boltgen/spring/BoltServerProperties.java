package io.boltgen.spring;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** {@code boltgen.server.*}: the {@link io.boltgen.runtime.BoltServer}; it exists only when a port is set. */
@ConfigurationProperties("boltgen.server")
public class BoltServerProperties {

  /** The address to listen on. */
  private String host = "0.0.0.0";

  /** The port to listen on (0: any free port). Unset: no server. */
  private Integer port;

  /** How long stopping the server waits for calls in flight to finish (the drain). */
  private Duration shutdownTimeout = Duration.ofSeconds(5);

  /** Closes connections without traffic for this long; zero never closes them. */
  private Duration idleTimeout = Duration.ofSeconds(90);

  /**
   * Bolt service names to export, besides beans annotated {@code @BoltExport}: the bean that implements
   * each one's interface serves it (exactly one such bean must exist).
   */
  private List<String> services = new ArrayList<>();

  public String getHost() {
    return host;
  }

  public void setHost(String host) {
    this.host = host;
  }

  public Integer getPort() {
    return port;
  }

  public void setPort(Integer port) {
    this.port = port;
  }

  public Duration getShutdownTimeout() {
    return shutdownTimeout;
  }

  public void setShutdownTimeout(Duration shutdownTimeout) {
    this.shutdownTimeout = shutdownTimeout;
  }

  public Duration getIdleTimeout() {
    return idleTimeout;
  }

  public void setIdleTimeout(Duration idleTimeout) {
    this.idleTimeout = idleTimeout;
  }

  public List<String> getServices() {
    return services;
  }

  public void setServices(List<String> services) {
    this.services = services;
  }
}
