package io.boltgen.runtime.internal;

import io.boltgen.runtime.MethodDescriptor;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The UTF-8 bytes of the wire names (requests' classNames) one endpoint sends, computed once per descriptor
 * and shared: the arrays must never be modified. Descriptors are normally constants of generated or
 * hand-built services, so a few entries suffice; the cache holds at most {@value #MAX_ENTRIES}, and a
 * descriptor beyond that (one made afresh per call, say) is encoded on every call instead of filling memory.
 * It belongs to its client or server and goes with it, so it never keeps a class loader alive. (A served
 * method keeps its response's className in its {@link MethodEntry}.)
 *
 * <p>Thread-safe.
 */
final class WireNames {

  /** Descriptors cached at most. */
  static final int MAX_ENTRIES = 4096;

  private final ConcurrentHashMap<MethodDescriptor<?, ?>, byte[]> cache = new ConcurrentHashMap<>();

  /** The bytes of {@link MethodDescriptor#wireName()}: a request's className. */
  byte[] of(MethodDescriptor<?, ?> method) {
    byte[] name = cache.get(method);
    if (name != null) {
      return name;
    }
    name = method.wireName().getBytes(StandardCharsets.UTF_8);
    if (cache.size() < MAX_ENTRIES) {
      cache.putIfAbsent(method, name);
    }
    return name;
  }

  /** Descriptors cached now. */
  int size() {
    return cache.size();
  }
}
