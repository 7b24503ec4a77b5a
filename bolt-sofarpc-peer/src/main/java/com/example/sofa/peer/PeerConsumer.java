package com.example.sofa.peer;

import com.alipay.sofa.rpc.client.AddressHolder;
import com.alipay.sofa.rpc.client.ProviderGroup;
import com.alipay.sofa.rpc.client.ProviderInfo;
import com.alipay.sofa.rpc.config.ConsumerConfig;
import com.alipay.sofa.rpc.context.RpcRuntimeContext;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs named checks against a provider of EchoService (protobuf) or GreetService (hessian2) through SOFARPC
 * consumers, one per invoke type, and prints one {@code CHECK} line per check and a {@code DONE} line.
 */
final class PeerConsumer {

  static final String DEFAULT_CALLS = "sync,future,callback,oneway,exception,timeout";
  /** The consumer timeout of the timeout check, and how long the provider sleeps in it. */
  static final int SHORT_TIMEOUT_MS = 300;
  static final int SLOW_MS = 2000;

  /** One check: returns what it saw when it passed, throws {@link Failed} (or anything) when it did not. */
  interface Check {
    String run() throws Exception;
  }

  /** A check that got something other than the contract says. */
  static final class Failed extends Exception {
    private static final long serialVersionUID = 1L;

    Failed(String detail) {
      super(detail);
    }
  }

  private final String serializer;
  private final String direct;
  private final String registry;
  private final int timeoutMs;
  private final List<ConsumerConfig<?>> referred = new ArrayList<>();

  private PeerConsumer(String serializer, String direct, String registry, int timeoutMs) {
    this.serializer = serializer;
    this.direct = direct;
    this.registry = registry;
    this.timeoutMs = timeoutMs;
  }

  /**
   * Runs the checks {@code calls} names against the provider at {@code direct} or those {@code registry} lists
   * (one of them null, as the command line checked) with {@code serializer} (protobuf or hessian2); prints a
   * {@code CHECK} line per check, then {@code DONE}, and returns 0 iff no check failed.
   */
  static int run(String serializer, String direct, String registry, int timeoutMs, List<String> calls) {

    PeerConsumer consumer = new PeerConsumer(serializer, direct, registry, timeoutMs);
    int passes = 0;
    int fails = 0;
    try {
      Map<String, Check> checks = serializer.equals("protobuf")
          ? new EchoChecks(consumer).checks() : new GreetChecks(consumer).checks();
      for (String name : calls) {
        Check check = checks.get(name);
        String line;
        if (check == null) {
          line = "CHECK " + name + " FAIL no such check (" + String.join(",", checks.keySet()) + ")";
        } else {
          line = runOne(name, check);
        }
        if (line.contains(" PASS ")) {
          passes++;
        } else {
          fails++;
        }
        PeerMain.OUT.println(line);
      }
    } finally {
      consumer.close();
    }
    PeerMain.OUT.println("DONE " + passes + " " + fails);
    return fails == 0 ? 0 : 1;
  }

  private static String runOne(String name, Check check) {
    try {
      return "CHECK " + name + " PASS " + oneLine(check.run());
    } catch (Failed e) {
      return "CHECK " + name + " FAIL " + oneLine(e.getMessage());
    } catch (Throwable e) {
      return "CHECK " + name + " FAIL unexpected " + describe(e);
    }
  }

  /** The class and message of {@code e} and its causes, on one line. */
  static String describe(Throwable e) {
    StringBuilder out = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t != e) {
        out.append(" <- caused by ");
      }
      out.append(t.getClass().getName()).append(": ").append(t.getMessage());
    }
    return oneLine(out.toString());
  }

  static String oneLine(String s) {
    return String.valueOf(s).replace('\r', ' ').replace('\n', ' ');
  }

  /**
   * A referred consumer of {@code service} (its interface name on the wire), proxied as {@code proxy}, with
   * {@code invokeType} and {@code timeout}.
   */
  <T> T refer(String service, Class<T> proxy, String invokeType, int timeout) {
    return refer(service, "", proxy, invokeType, timeout);
  }

  /** {@link #refer(String, Class, String, int)} of the service's variant {@code uniqueId} ("" for none). */
  <T> T refer(String service, String uniqueId, Class<T> proxy, String invokeType, int timeout) {
    ConsumerConfig<T> config = new ConsumerConfig<T>()
        .setApplication(Sofa.application())
        .setInterfaceId(service)
        .setProtocol(Sofa.PROTOCOL)
        .setSerialization(serializer)
        .setInvokeType(invokeType)
        .setTimeout(timeout)
        .setConnectTimeout(timeout)
        // one consumer per invoke type (and one per look-alike proxy) of the same service, on purpose
        .setRepeatedReferLimit(100);
    config.setProxyClass(proxy);
    if (!uniqueId.isEmpty()) {
      config.setUniqueId(uniqueId);
    }
    if (direct != null) {
      config.setDirectUrl("bolt://" + direct);
      config.setRegister(false);
    } else {
      config.setRegistry(Sofa.registry(registry));
      config.setRegister(false);
      // wait (bounded) for the registry's first list of providers before the first call
      config.setAddressWait(timeout);
    }
    T ref = config.refer();
    referred.add(config);
    return ref;
  }

  int timeoutMs() {
    return timeoutMs;
  }

  private final Map<String, ConsumerConfig<?>> cache = new LinkedHashMap<>();

  /** {@link #refer}, once per (service, proxy, invoke type, timeout). */
  <T> T ref(String service, Class<T> proxy, String invokeType, int timeout) {
    return proxy.cast(config(service, proxy, invokeType, timeout).getConsumerBootstrap().getProxyIns());
  }

  private ConsumerConfig<?> config(String service, Class<?> proxy, String invokeType, int timeout) {
    String key = service + "/" + proxy.getName() + "/" + invokeType + "/" + timeout;
    ConsumerConfig<?> config = cache.get(key);
    if (config == null) {
      refer(service, proxy, invokeType, timeout);
      config = referred.get(referred.size() - 1);
      cache.put(key, config);
    }
    return config;
  }

  /**
   * {@code bolt://host:port} of one provider that consumer knows (the first), for pinning calls to it with
   * RpcInvokeContext.setTargetURL (the oneway check counts pings on one provider), or null if it knows none.
   */
  String oneProvider(String service, Class<?> proxy, String invokeType, int timeout) {
    AddressHolder addresses = config(service, proxy, invokeType, timeout).getConsumerBootstrap().getCluster()
        .getAddressHolder();
    for (ProviderGroup group : addresses.getProviderGroups()) {
      for (ProviderInfo provider : group.getProviderInfos()) {
        return Sofa.PROTOCOL + "://" + provider.getHost() + ":" + provider.getPort();
      }
    }
    return null;
  }

  private void close() {
    for (ConsumerConfig<?> config : referred) {
      try {
        config.unRefer();
      } catch (RuntimeException e) {
        System.err.println("sofa-peer: unRefer " + config.getInterfaceId() + ": " + e);
      }
    }
    RpcRuntimeContext.destroy();
  }
}
