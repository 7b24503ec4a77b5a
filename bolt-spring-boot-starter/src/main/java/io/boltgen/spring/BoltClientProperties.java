package io.boltgen.spring;

import io.boltgen.runtime.WireProtocol;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** {@code boltgen.client.*}: the {@link io.boltgen.runtime.BoltClient} and the services it calls. */
@ConfigurationProperties("boltgen.client")
public class BoltClientProperties {

  /** The frame format requests use. */
  private WireProtocol protocol = WireProtocol.V2_CRC;

  /** How long one connection attempt may take (also what the health check waits for a connection). */
  private Duration connectTimeout = Duration.ofSeconds(1);

  /** Connections per remote address. */
  private int connectionsPerAddress = 1;

  /** How long closing the client waits for calls in flight. */
  private Duration shutdownTimeout = Duration.ofSeconds(5);

  /**
   * The services to call, by Bolt service name. A name holds dots, so it goes in brackets:
   * {@code boltgen.client.services[demo.Inventory].target=host:port}. A client bean is made for each entry,
   * and only for those.
   */
  private Map<String, Service> services = new LinkedHashMap<>();

  public WireProtocol getProtocol() {
    return protocol;
  }

  public void setProtocol(WireProtocol protocol) {
    this.protocol = protocol;
  }

  public Duration getConnectTimeout() {
    return connectTimeout;
  }

  public void setConnectTimeout(Duration connectTimeout) {
    this.connectTimeout = connectTimeout;
  }

  public int getConnectionsPerAddress() {
    return connectionsPerAddress;
  }

  public void setConnectionsPerAddress(int connectionsPerAddress) {
    this.connectionsPerAddress = connectionsPerAddress;
  }

  public Duration getShutdownTimeout() {
    return shutdownTimeout;
  }

  public void setShutdownTimeout(Duration shutdownTimeout) {
    this.shutdownTimeout = shutdownTimeout;
  }

  public Map<String, Service> getServices() {
    return services;
  }

  public void setServices(Map<String, Service> services) {
    this.services = services;
  }

  /** One service a client bean calls. */
  public static class Service {

    /** Where the service listens, {@code host:port}. */
    private String target;

    /** The timeout of every call of the client bean; unset: the method's or the service's own. */
    private Duration timeout;

    public String getTarget() {
      return target;
    }

    public void setTarget(String target) {
      this.target = target;
    }

    public Duration getTimeout() {
      return timeout;
    }

    public void setTimeout(Duration timeout) {
      this.timeout = timeout;
    }
  }
}
