package io.boltgen.spring;

import io.boltgen.runtime.CallOptions;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.MethodType;
import io.boltgen.runtime.service.GeneratedService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;

/**
 * {@code boltgen.client.services}, read and checked against the generated services on the class path: which
 * services get a client bean, where each one calls, and the call options of each method.
 *
 * <p>An entry names its service by its key ({@code services[demo.Inventory]}) or, where a key cannot hold dots
 * (an environment variable), by its {@code service} property. Entries that name one service are merged; two
 * different values for one setting are an error. Every name is checked: an entry that names no generated service,
 * or a method the service lacks, fails the startup with the names that exist and the nearest ones.
 */
final class ClientEntries {

  static final String PREFIX = "boltgen.client.services";

  /** One service to call: its generated code, its target ({@code null}: no bean) and its call options. */
  record Client(GeneratedService<?> service, String target, Map<String, CallOptions> methodOptions,
      CallOptions serviceOptions, List<String> keys) {

    String name() {
      return service.descriptor().name();
    }
  }

  private ClientEntries() {}

  /** The clients {@code binder}'s properties configure; throws {@link BoltClientConfigurationException}. */
  static List<Client> resolve(Binder binder, Map<String, GeneratedService<?>> generated) {
    // every key, even one that binds to nothing (a dotted name without brackets becomes its first segment)
    Set<String> keys = new LinkedHashSet<>(
        binder.bind(PREFIX, Bindable.mapOf(String.class, Object.class)).orElse(Map.of()).keySet());
    Map<String, BoltClientProperties.Service> entries =
        binder.bind(PREFIX, Bindable.mapOf(String.class, BoltClientProperties.Service.class)).orElse(Map.of());
    keys.addAll(entries.keySet());

    Map<String, Merged> byService = new LinkedHashMap<>();
    for (String key : keys) {
      BoltClientProperties.Service entry = entries.getOrDefault(key, new BoltClientProperties.Service());
      String name = blankToNull(entry.getService()) != null ? entry.getService().strip() : key;
      GeneratedService<?> service = generated.get(name);
      if (service == null) {
        throw noSuchService(key, blankToNull(entry.getService()) != null ? entry.getService().strip() : null,
            generated.keySet());
      }
      byService.computeIfAbsent(name, n -> new Merged(service)).add(key, entry);
    }
    List<Client> clients = new ArrayList<>();
    for (Merged merged : byService.values()) {
      clients.add(merged.client());
    }
    return clients;
  }

  /** The entries of one service, merged. */
  private static final class Merged {
    private final GeneratedService<?> service;
    private final List<String> keys = new ArrayList<>();
    private final Setting<String> target = new Setting<>("target");
    private final Setting<Duration> timeout = new Setting<>("timeout");
    private final Setting<Integer> maxAttempts = new Setting<>("max-attempts");
    private final Map<String, MethodSettings> methods = new LinkedHashMap<>();

    Merged(GeneratedService<?> service) {
      this.service = service;
    }

    void add(String key, BoltClientProperties.Service entry) {
      keys.add(key);
      String where = key + "]";
      target.set(where, blankToNull(entry.getTarget()));
      timeout.set(where, entry.getTimeout());
      maxAttempts.set(where, entry.getMaxAttempts());
      for (Map.Entry<String, BoltClientProperties.Method> m : entry.getMethods().entrySet()) {
        MethodDescriptor<?, ?> method = method(service, key, m.getKey());
        MethodSettings settings = methods.computeIfAbsent(method.methodName(), n -> new MethodSettings(method));
        String at = key + "].methods." + m.getKey();
        settings.timeout.set(at, m.getValue().getTimeout());
        settings.idempotent.set(at, m.getValue().getIdempotent());
        settings.maxAttempts.set(at, m.getValue().getMaxAttempts());
      }
    }

    Client client() {
      CallOptions serviceOptions = options(CallOptions.DEFAULT, timeout, maxAttempts, null);
      Map<String, CallOptions> byMethod = new LinkedHashMap<>();
      for (MethodSettings m : methods.values()) {
        if (m.idempotent.value != null && m.idempotent.value && m.method.type() != MethodType.REQUEST_RESPONSE) {
          throw new BoltClientConfigurationException(PREFIX + "[" + m.idempotent.setBy + ".idempotent is true, but "
              + m.method.methodName() + " is " + m.method.type() + ": only a method with an answer may be sent again.",
              "Remove the setting.");
        }
        byMethod.put(m.method.methodName(), options(serviceOptions, m.timeout, m.maxAttempts, m.idempotent));
      }
      return new Client(service, target.value, Map.copyOf(byMethod), serviceOptions, List.copyOf(keys));
    }
  }

  /** The settings of one method, merged over the entries of its service. */
  private static final class MethodSettings {
    final MethodDescriptor<?, ?> method;
    final Setting<Duration> timeout = new Setting<>("timeout");
    final Setting<Boolean> idempotent = new Setting<>("idempotent");
    final Setting<Integer> maxAttempts = new Setting<>("max-attempts");

    MethodSettings(MethodDescriptor<?, ?> method) {
      this.method = method;
    }
  }

  /** One setting, given by at most one value however many entries set it. */
  private static final class Setting<T> {
    final String property;
    T value;
    String setBy;

    Setting(String property) {
      this.property = property;
    }

    void set(String where, T newValue) {
      if (newValue == null) {
        return;
      }
      if (value != null && !value.equals(newValue)) {
        throw new BoltClientConfigurationException(PREFIX + "[" + setBy + "." + property + " is " + value + " and "
            + PREFIX + "[" + where + "." + property + " is " + newValue + ": both entries configure the same service.",
            "Keep one of the two values.");
      }
      value = newValue;
      setBy = where;
    }
  }

  /** {@code base} with the settings that have a value; each value is checked. */
  private static CallOptions options(CallOptions base, Setting<Duration> timeout, Setting<Integer> maxAttempts,
      Setting<Boolean> idempotent) {
    CallOptions options = base;
    if (timeout.value != null) {
      Duration t = timeout.value;
      if (t.isNegative() || t.isZero() || t.toMillis() == 0 || t.toMillis() > Integer.MAX_VALUE) {
        throw new BoltClientConfigurationException(PREFIX + "[" + timeout.setBy + ".timeout is " + t
            + ": a timeout is from 1 ms to " + Integer.MAX_VALUE + " ms.", "Set a timeout such as 500ms or 2s.");
      }
      options = options.withTimeout(t);
    }
    if (maxAttempts.value != null) {
      if (maxAttempts.value < 1) {
        throw new BoltClientConfigurationException(PREFIX + "[" + maxAttempts.setBy + ".max-attempts is "
            + maxAttempts.value + ": a call is sent at least once.", "Set 1 (no failover) or more.");
      }
      options = options.withMaxAttempts(maxAttempts.value);
    }
    if (idempotent != null && idempotent.value != null) {
      options = options.withIdempotent(idempotent.value);
    }
    return options;
  }

  /** The method of {@code service} that {@code key} names, as spelled or in lower or kebab case. */
  private static MethodDescriptor<?, ?> method(GeneratedService<?> service, String entryKey, String key) {
    List<MethodDescriptor<?, ?>> all = service.descriptor().methods();
    for (MethodDescriptor<?, ?> m : all) {
      if (m.methodName().equals(key)) {
        return m;
      }
    }
    List<MethodDescriptor<?, ?>> loose = new ArrayList<>();
    for (MethodDescriptor<?, ?> m : all) {
      if (loose(m.methodName()).equals(loose(key))) {
        loose.add(m);
      }
    }
    List<String> names = all.stream().map(MethodDescriptor::methodName).toList();
    if (loose.size() == 1) {
      return loose.get(0);
    }
    String property = PREFIX + "[" + entryKey + "].methods." + key;
    if (loose.size() > 1) {
      throw new BoltClientConfigurationException(property + " could be any of "
          + loose.stream().map(MethodDescriptor::methodName).toList() + " of " + service.descriptor().name() + ".",
          "Spell the method name as the interface does, in a properties or YAML file.");
    }
    List<String> near = nearest(key, names);
    throw new BoltClientConfigurationException(property + " names no method of " + service.descriptor().name()
        + ", whose methods are " + names + ".",
        near.isEmpty() ? "Name one of its methods." : "Did you mean " + String.join(" or ", near) + "?");
  }

  private static BoltClientConfigurationException noSuchService(String key, String serviceProperty,
      Collection<String> known) {
    String wanted = serviceProperty != null ? serviceProperty : key;
    String what = serviceProperty != null
        ? PREFIX + "." + key + ".service is '" + serviceProperty + "'"
        : PREFIX + " has an entry '" + key + "'";
    String description = what + ", which is no generated service on the class path. The services there are "
        + known + ".";
    List<String> hints = new ArrayList<>();
    List<String> near = nearest(wanted, known);
    if (!near.isEmpty()) {
      hints.add("Did you mean " + String.join(" or ", near) + "? Service names are case-sensitive.");
    }
    if (serviceProperty == null) {
      List<String> dotted = known.stream().filter(n -> n.startsWith(key + ".")).toList();
      if (!dotted.isEmpty()) {
        String name = dotted.get(0);
        hints.add("A service name holds dots: written without brackets (" + PREFIX + "." + name + ".target), it"
            + " becomes an entry named '" + key + "'. Write it in brackets, " + PREFIX + "[" + name + "].target,"
            + " or give the entry any key and name the service: " + PREFIX + "." + alias(name) + ".service="
            + name + ".");
      } else if (near.isEmpty()) {
        hints.add("Name one of the services in brackets, " + PREFIX + "[<service>].target, or give the entry any key"
            + " and name the service in its 'service' property (" + PREFIX + "." + key.toLowerCase(Locale.ROOT)
            + ".service=<service>).");
      } else if (!near.get(0).equals(key) && !key.contains(".")) {
        hints.add("Or keep the key and name the service: " + PREFIX + "." + key + ".service=" + near.get(0)
            + " (environment: " + environmentVariable(key, "SERVICE") + "=" + near.get(0) + ").");
      }
    }
    if (hints.isEmpty()) {
      hints.add("Name one of the services on the class path, or add the jar that holds the service's generated code.");
    }
    return new BoltClientConfigurationException(description, String.join(" ", hints));
  }

  /** The names among {@code names} close to {@code wanted}: the same but for case, dashes, a package, or a typo. */
  static List<String> nearest(String wanted, Collection<String> names) {
    List<String> near = new ArrayList<>();
    String w = loose(wanted);
    for (String name : names) {
      String n = loose(name);
      String simple = loose(name.substring(name.lastIndexOf('.') + 1));
      if (n.equals(w) || simple.equals(w) || distance(n, w) <= Math.max(1, Math.min(n.length(), w.length()) / 4)) {
        near.add(name);
      }
    }
    return near;
  }

  /** A key an environment variable can spell for {@code service}: its simple name, lower case. */
  static String alias(String service) {
    return service.substring(service.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT);
  }

  /** {@code BOLTGEN_CLIENT_SERVICES_<KEY>_<PROPERTY>}. */
  static String environmentVariable(String key, String property) {
    return "BOLTGEN_CLIENT_SERVICES_" + key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_') + "_"
        + property;
  }

  private static String loose(String name) {
    return name.toLowerCase(Locale.ROOT).replace("-", "").replace("_", "");
  }

  /** Levenshtein distance. */
  private static int distance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s;
  }
}
