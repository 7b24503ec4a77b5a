package io.boltgen.runtime;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The built-in authorization: which authenticated peers may call which service, by certificate subject or
 * subject alternative name ({@link PeerIdentity#isNamed}). A {@link ServerInterceptor}: add it with
 * {@code BoltServer.Builder.serverInterceptor}. A call to a listed service from a peer it does not name, or
 * from a peer without a certificate, is refused with {@link PeerNotAuthorizedException}; a service it does
 * not list is refused too unless {@link Builder#allowUnlisted()} was set.
 *
 * <pre>{@code
 * BoltServer.builder()
 *     .tls(serverTls)    // with ClientAuth.REQUIRE
 *     .serverInterceptor(PeerAllowList.builder()
 *         .allow("demo.Inventory", "DNS:orders.internal", "CN=audit,O=acme")
 *         .allowMethod("demo.Inventory", "report", "CN=audit,O=acme")
 *         .build())
 * }</pre>
 *
 * <p>For decisions on anything else (request headers, time of day), write a {@link ServerInterceptor} of
 * your own and throw {@link PeerNotAuthorizedException}. Immutable and thread-safe.
 */
public final class PeerAllowList implements ServerInterceptor {

  private final Map<String, Set<String>> byService;
  private final Map<String, Set<String>> byMethod;
  private final boolean allowUnlisted;

  private PeerAllowList(Builder b) {
    this.byService = copy(b.byService);
    this.byMethod = copy(b.byMethod);
    this.allowUnlisted = b.allowUnlisted;
  }

  private static Map<String, Set<String>> copy(Map<String, Set<String>> map) {
    Map<String, Set<String>> out = new HashMap<>();
    map.forEach((k, v) -> out.put(k, Set.copyOf(v)));
    return Map.copyOf(out);
  }

  /** An empty list: refuses everything until something is allowed. */
  public static Builder builder() {
    return new Builder();
  }

  @Override
  public Listener interceptCall(ServerContext call) {
    MethodDescriptor<?, ?> method = call.method();
    String service = method.serviceName();
    Set<String> allowed = byMethod.get(service + "/" + method.methodName());
    if (allowed == null) {
      allowed = byService.get(service);
    }
    if (allowed == null) {
      if (allowUnlisted) {
        return null;
      }
      throw new PeerNotAuthorizedException("no peer may call " + service + ": it is not on the allow-list");
    }
    PeerIdentity peer = call.connection().peerIdentity();
    if (peer == null) {
      throw new PeerNotAuthorizedException("calls to " + method.wireName() + " need a client certificate;"
          + " the connection from " + call.remoteAddress() + " has none");
    }
    for (String name : allowed) {
      if (peer.isNamed(name)) {
        return null;
      }
    }
    throw new PeerNotAuthorizedException("peer " + peer + " may not call " + method.wireName());
  }

  /** Builds a {@link PeerAllowList}. Not thread-safe. */
  public static final class Builder {
    private final Map<String, Set<String>> byService = new HashMap<>();
    private final Map<String, Set<String>> byMethod = new HashMap<>();
    private boolean allowUnlisted;

    private Builder() {}

    /**
     * Lets peers named {@code names} (a subject such as {@code CN=orders,O=acme}, or a subject alternative
     * name such as {@code DNS:orders.internal} or {@code URI:spiffe://acme/orders}) call every method of
     * {@code service} (its {@code @BoltService} name) that has no list of its own.
     */
    public Builder allow(String service, String... names) {
      add(byService, Objects.requireNonNull(service, "service"), names);
      return this;
    }

    /** Lets peers named {@code names} call {@code method} of {@code service}; this list replaces the service's. */
    public Builder allowMethod(String service, String method, String... names) {
      add(byMethod, Objects.requireNonNull(service, "service") + "/" + Objects.requireNonNull(method, "method"),
          names);
      return this;
    }

    /** Lets any peer call the services not listed at all (by default they are refused). */
    public Builder allowUnlisted() {
      this.allowUnlisted = true;
      return this;
    }

    private static void add(Map<String, Set<String>> map, String key, String... names) {
      Set<String> set = map.computeIfAbsent(key, k -> new LinkedHashSet<>());
      for (String name : names) {
        set.add(Objects.requireNonNull(name, "name"));
      }
    }

    /** The allow-list. */
    public PeerAllowList build() {
      return new PeerAllowList(this);
    }
  }
}
