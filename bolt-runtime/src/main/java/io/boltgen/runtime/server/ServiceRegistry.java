package io.boltgen.runtime.server;

import io.boltgen.runtime.service.InternalMethodDescriptors;
import io.boltgen.runtime.service.MethodDescriptor;
import io.boltgen.runtime.service.ServiceDefinition;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * The methods an endpoint serves, keyed by their wire className. Immutable once built; lookups hash and
 * compare the className bytes in the frame directly, so dispatch allocates no String.
 */
public final class ServiceRegistry {

  private final ByteBuf[] keys;
  private final MethodEntry[] entries;
  private final int mask;
  private final List<String> wireNames;

  private ServiceRegistry(List<MethodEntry> all) {
    int keyCount = 0;
    for (MethodEntry entry : all) {
      keyCount += 1 + entry.method().aliases().size();
    }
    int capacity = Integer.highestOneBit(Math.max(4, keyCount * 4) - 1) << 1;
    this.keys = new ByteBuf[capacity];
    this.entries = new MethodEntry[capacity];
    this.mask = capacity - 1;
    List<String> names = new ArrayList<>();
    for (MethodEntry entry : all) {
      put(InternalMethodDescriptors.wireNameUtf8(entry.method()), entry);
      names.add(entry.method().wireName());
      for (String alias : entry.method().aliases()) {
        put(alias.getBytes(StandardCharsets.UTF_8), entry);
      }
    }
    this.wireNames = List.copyOf(names);
  }

  private void put(byte[] className, MethodEntry entry) {
    ByteBuf key = Unpooled.wrappedBuffer(className).asReadOnly();
    int slot = ByteBufUtil.hashCode(key) & mask;
    while (keys[slot] != null) {
      if (ByteBufUtil.equals(keys[slot], key)) {
        throw new IllegalArgumentException("className " + key.toString(StandardCharsets.UTF_8)
            + " is registered twice");
      }
      slot = (slot + 1) & mask;
    }
    keys[slot] = key;
    entries[slot] = entry;
  }

  /** The entry whose wire name (or alias) equals the readable bytes of {@code className}, or {@code null}. */
  MethodEntry lookup(ByteBuf className) {
    int slot = ByteBufUtil.hashCode(className) & mask;
    ByteBuf key;
    while ((key = keys[slot]) != null) {
      if (ByteBufUtil.equals(key, className)) {
        return entries[slot];
      }
      slot = (slot + 1) & mask;
    }
    return null;
  }

  /** Every registered wire name, in registration order. */
  public List<String> wireNames() {
    return wireNames;
  }

  /** Starts a registry. */
  public static Builder builder() {
    return new Builder();
  }

  /** Collects services. */
  public static final class Builder {
    private final List<MethodEntry> entries = new ArrayList<>();

    private Builder() {}

    /** Adds every method of {@code service}, to run on {@code executor} ({@code null}: the default). */
    public Builder add(ServiceDefinition service, Executor executor) {
      for (MethodDescriptor<?, ?> method : service.descriptor().methods()) {
        entries.add(new MethodEntry(method, service.invoker(), executor));
      }
      return this;
    }

    /** The registry. */
    public ServiceRegistry build() {
      return new ServiceRegistry(entries);
    }
  }
}
