package io.boltgen.runtime.internal.server;

import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.ServiceDefinition;
import io.boltgen.runtime.call.ServerCalls;
import io.boltgen.runtime.codec.FailureMarshaller;
import io.boltgen.runtime.internal.wire.BoltFrame;
import io.boltgen.runtime.support.MessageText;
import io.netty.util.concurrent.FastThreadLocal;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The methods an endpoint serves, keyed by their wire className (and aliases). Immutable once built;
 * lookups hash and compare the className bytes of the frame, so dispatch allocates no String (the hash
 * reads the name's length and its first, middle and last eight bytes, the comparison all of it). Methods that
 * share one className (a dialect whose every request carries the same one) form a {@link Routed} group, told
 * apart by their {@link MethodDescriptor#routingHeaders() routing headers}.
 */
public final class MethodTable {

  private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final FastThreadLocal<byte[]> SCRATCH = new FastThreadLocal<>() {
    @Override
    protected byte[] initialValue() {
      return new byte[256];
    }
  };

  private final byte[][] keys;
  private final MethodEntry[] entries;
  private final int mask;
  // the classNames several methods share, each with its methods by routing header values (usually none)
  private final Routed[] routed;

  private MethodTable(List<MethodEntry> all) {
    int keyCount = 0;
    Map<String, List<MethodEntry>> shared = new LinkedHashMap<>();
    for (MethodEntry entry : all) {
      if (!entry.method().routingHeaders().isEmpty()) {
        shared.computeIfAbsent(entry.method().wireName(), name -> new ArrayList<>()).add(entry);
        continue;
      }
      keyCount += 1 + entry.method().aliases().size();
    }
    int capacity = Integer.highestOneBit(Math.max(4, keyCount * 4) - 1) << 1;
    this.keys = new byte[capacity][];
    this.entries = new MethodEntry[capacity];
    this.mask = capacity - 1;
    for (MethodEntry entry : all) {
      if (!entry.method().routingHeaders().isEmpty()) {
        continue;
      }
      put(entry.method().wireName().getBytes(StandardCharsets.UTF_8), entry);
      for (String alias : entry.method().aliases()) {
        put(alias.getBytes(StandardCharsets.UTF_8), entry);
      }
    }
    List<Routed> groups = new ArrayList<>();
    for (Map.Entry<String, List<MethodEntry>> group : shared.entrySet()) {
      byte[] name = group.getKey().getBytes(StandardCharsets.UTF_8);
      if (lookup(name, name.length) != null) {
        throw new IllegalArgumentException("className " + group.getKey() + " is both a method's own and shared by"
            + " methods told apart by their routing headers");
      }
      groups.add(new Routed(name, group.getValue()));
    }
    this.routed = groups.toArray(new Routed[0]);
  }

  private void put(byte[] className, MethodEntry entry) {
    int slot = hash(className, className.length) & mask;
    while (keys[slot] != null) {
      if (Arrays.equals(keys[slot], className)) {
        throw new IllegalArgumentException("className " + new String(className, StandardCharsets.UTF_8)
            + " is registered twice");
      }
      slot = (slot + 1) & mask;
    }
    keys[slot] = className;
    entries[slot] = entry;
  }

  /**
   * A hash of the first {@code length} bytes from their length and three runs of eight: the first, the
   * middle and the last (three loads, not a multiply per byte: classNames are tens of bytes long; keys that
   * collide are told apart by comparing their bytes).
   */
  private static int hash(byte[] bytes, int length) {
    long h;
    if (length >= Long.BYTES) {
      h = ((long) LONG.get(bytes, 0) * 0x9E3779B97F4A7C15L ^ (long) LONG.get(bytes, (length - Long.BYTES) >>> 1))
          * 0x9E3779B97F4A7C15L ^ (long) LONG.get(bytes, length - Long.BYTES);
    } else {
      h = 0;
      for (int i = 0; i < length; i++) {
        h = h << 8 | (bytes[i] & 0xFF);
      }
    }
    h = (h ^ length) * 0xC2B2AE3D27D4EB4FL;
    return (int) (h ^ (h >>> 32));
  }

  /**
   * The entry whose wire name (or alias) equals the className of {@code frame}, or {@code null}. Copies
   * the name once into a per-thread scratch array (one bulk read of the buffer) and compares arrays.
   */
  MethodEntry lookup(BoltFrame frame) {
    int length = frame.classLength();
    byte[] name = SCRATCH.get();
    if (length > name.length) {
      name = new byte[length];
    }
    frame.copyClassName(name);
    return lookup(name, length);
  }

  /** The entry whose wire name (or alias) is the first {@code length} bytes of {@code name}, or {@code null}. */
  MethodEntry lookup(byte[] name, int length) {
    int slot = hash(name, length) & mask;
    byte[] key;
    while ((key = keys[slot]) != null) {
      if (key.length == length && Arrays.equals(key, 0, length, name, 0, length)) {
        return entries[slot];
      }
      slot = (slot + 1) & mask;
    }
    return null;
  }

  /** The group of methods sharing {@code frame}'s className, or {@code null} (the common case: none are shared). */
  Routed routed(BoltFrame frame) {
    if (routed.length == 0) {
      return null;
    }
    int length = frame.classLength();
    byte[] name = SCRATCH.get();
    if (length > name.length) {
      return null; // no shared className is that long
    }
    frame.copyClassName(name);
    for (Routed group : routed) {
      if (group.className.length == length && Arrays.equals(group.className, 0, length, name, 0, length)) {
        return group;
      }
    }
    return null;
  }

  static Builder builder() {
    return new Builder();
  }

  /**
   * Checks that {@code services} can be served together (no className twice, shared classNames routed alike),
   * before anything of a server starts.
   *
   * @throws IllegalArgumentException naming the clash
   */
  public static void check(List<ServiceDefinition> services) {
    builder().addDescriptors(services).build();
  }

  /**
   * The methods that share one className, by the values of their routing headers (all of them route by the
   * same headers).
   */
  static final class Routed {
    private final byte[] className;
    private final List<String> headers;
    private final Map<String, MethodEntry> byRoute = new HashMap<>();
    private final Set<String> services = new HashSet<>();
    private final Map<Byte, MethodEntry> byCodec = new HashMap<>();

    private Routed(byte[] className, List<MethodEntry> methods) {
      this.className = className;
      this.headers = methods.get(0).method().routingHeaders();
      for (MethodEntry entry : methods) {
        if (!entry.method().routingHeaders().equals(headers)) {
          throw new IllegalArgumentException("methods sharing className " + new String(className,
              StandardCharsets.UTF_8) + " route by different headers: " + headers + " and "
              + entry.method().routingHeaders());
        }
        if (byRoute.put(route(entry.method().requestHeaders()), entry) != null) {
          throw new IllegalArgumentException("method " + entry + " is registered twice");
        }
        services.add(service(entry.method().requestHeaders()));
        byCodec.putIfAbsent(entry.method().responseMarshaller().codecId(), entry);
      }
    }

    /**
     * How the protocol answers a request whose routing headers name a service none of these methods belongs to,
     * in the request's {@code codec}: a method of that codec whose answers carry failures, and the failure its
     * marshaller answers with ({@link FailureMarshaller#unknownService}); {@code null} when the service is
     * served (the method is unknown) or the protocol has no such answer.
     */
    UnknownService unknownService(Map<String, String> requestHeaders, byte codec) {
      if (services.contains(service(requestHeaders))) {
        return null;
      }
      MethodEntry entry = byCodec.get(codec);
      if (entry == null || !(entry.method().responseMarshaller() instanceof FailureMarshaller<?> answers)) {
        return null;
      }
      StringBuilder named = new StringBuilder();
      for (int i = 0; i < headers.size() - 1; i++) {
        named.append(i == 0 ? "" : "/").append(requestHeaders.get(headers.get(i)));
      }
      Throwable failure = answers.unknownService(MessageText.shorten(named.toString()));
      return failure == null ? null : new UnknownService(entry, answers, failure);
    }

    /** A request for an unknown service, answered as the protocol's servers do: {@link #unknownService}. */
    record UnknownService(MethodEntry entry, FailureMarshaller<?> answers, Throwable failure) {}

    /** The values of every routing header but the last (the method's): the service a request names. */
    private String service(Map<String, String> requestHeaders) {
      StringBuilder key = new StringBuilder();
      for (int i = 0; i < headers.size() - 1; i++) {
        key.append(requestHeaders.get(headers.get(i))).append('\n');
      }
      return key.toString();
    }

    /** The method a request with these headers asks for, or {@code null}. */
    MethodEntry lookup(Map<String, String> requestHeaders) {
      return byRoute.get(route(requestHeaders));
    }

    /**
     * What a request with these headers asks for, for messages, from its routing headers' values (each cut
     * short): {@code service a/b, method m}, the last one naming the method and those before it its service.
     */
    String describe(Map<String, String> requestHeaders) {
      StringBuilder text = new StringBuilder("service ");
      for (int i = 0; i < headers.size() - 1; i++) {
        text.append(i == 0 ? "" : "/").append(MessageText.shorten(requestHeaders.get(headers.get(i))));
      }
      return text.append(", method ").append(MessageText.shorten(requestHeaders.get(headers.get(headers.size() - 1))))
          .toString();
    }

    private String route(Map<String, String> requestHeaders) {
      StringBuilder key = new StringBuilder();
      for (String header : headers) {
        key.append(requestHeaders.get(header)).append('\n');
      }
      return key.toString();
    }
  }

  /** Collects the methods of the one call path. */
  static final class Builder {
    private final List<MethodEntry> entries = new ArrayList<>();

    private Builder() {}

    /** Adds every method of {@code calls}. */
    Builder addAll(ServerCalls calls) {
      for (ServerCalls.Method method : calls.methods()) {
        entries.add(new MethodEntry(method));
      }
      return this;
    }

    /** Adds every method of {@code services}, for {@link #check} only: they have no handles to serve by. */
    Builder addDescriptors(List<ServiceDefinition> services) {
      for (ServiceDefinition service : services) {
        for (MethodDescriptor<?, ?> method : service.descriptor().methods()) {
          entries.add(new MethodEntry(method));
        }
      }
      return this;
    }

    /** The table. */
    MethodTable build() {
      return new MethodTable(entries);
    }
  }
}
