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
   * {@code boltgen.client.services[demo.Inventory].target=host:port}. Where brackets cannot be written (an
   * environment variable), the key is any name and {@code service} holds the Bolt service name:
   * {@code BOLTGEN_CLIENT_SERVICES_INVENTORY_SERVICE=demo.Inventory}. A client bean is made for each service
   * with a target, and only for those.
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

    /**
     * The Bolt service name (e.g. {@code demo.Inventory}) when the entry's key is not that name: the form an
     * environment variable can spell, {@code BOLTGEN_CLIENT_SERVICES_INVENTORY_SERVICE=demo.Inventory}.
     */
    private String service;

    /** Where the service listens, {@code host:port}, or a cluster target ({@code etcd:///demo.Inventory:1.0}). */
    private String target;

    /** The timeout of every call of the client bean; unset: the method's or the service's own. */
    private Duration timeout;

    /**
     * How many times a call to a cluster may be sent (the first attempt included; 1 turns failover off); unset:
     * the client's ({@code BoltClient.Builder.retries}, 3).
     */
    private Integer maxAttempts;

    /**
     * Settings of single methods, by method name as the interface spells it ({@code get}); an environment
     * variable's lower-case spelling ({@code getstock}) and kebab case ({@code get-stock}) find it too.
     */
    private Map<String, Method> methods = new LinkedHashMap<>();

    public String getService() {
      return service;
    }

    public void setService(String service) {
      this.service = service;
    }

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

    public Integer getMaxAttempts() {
      return maxAttempts;
    }

    public void setMaxAttempts(Integer maxAttempts) {
      this.maxAttempts = maxAttempts;
    }

    public Map<String, Method> getMethods() {
      return methods;
    }

    public void setMethods(Map<String, Method> methods) {
      this.methods = methods;
    }
  }

  /** The settings of one method of a client bean; each one unset falls back to the service's. */
  public static class Method {

    /** The timeout of this method's calls; unset: the service entry's, else the method's own. */
    private Duration timeout;

    /**
     * Whether the method may run more than once, so that a call to a cluster may be sent again after its request
     * was written, when its connection failed; unset: its {@code @Idempotent}.
     */
    private Boolean idempotent;

    /** How many times a call to a cluster may be sent (1 turns failover off); unset: the service entry's. */
    private Integer maxAttempts;

    public Duration getTimeout() {
      return timeout;
    }

    public void setTimeout(Duration timeout) {
      this.timeout = timeout;
    }

    public Boolean getIdempotent() {
      return idempotent;
    }

    public void setIdempotent(Boolean idempotent) {
      this.idempotent = idempotent;
    }

    public Integer getMaxAttempts() {
      return maxAttempts;
    }

    public void setMaxAttempts(Integer maxAttempts) {
      this.maxAttempts = maxAttempts;
    }
  }
}
