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
 * method keeps its response's className in its {@code server.MethodEntry}.)
 *
 * <p>Thread-safe.
 */
final class WireNames {

  /** Descriptors cached at most. */
  static final int MAX_ENTRIES = 4096;

  private final ConcurrentHashMap<MethodDescriptor<?, ?>, Name> cache = new ConcurrentHashMap<>();
  // the name cached last, tried before the map: a client that calls one method never reaches the map
  // (read and written without synchronization: a Name is immutable, so any thread sees a whole one)
  private Name last;

  /** The bytes of {@link MethodDescriptor#wireName()}: a request's className. */
  byte[] of(MethodDescriptor<?, ?> method) {
    Name name = last;
    if (name != null && name.method == method) {
      return name.bytes;
    }
    name = cache.get(method);
    if (name == null) {
      name = new Name(method, method.wireName().getBytes(StandardCharsets.UTF_8));
      if (cache.size() >= MAX_ENTRIES) {
        return name.bytes;
      }
      Name raced = cache.putIfAbsent(method, name);
      if (raced != null) {
        name = raced;
      }
      last = name; // only when the map learned a name: callers of several methods never write it per call
    }
    return name.bytes;
  }

  /** Descriptors cached now. */
  int size() {
    return cache.size();
  }

  /** A descriptor and the UTF-8 bytes of its wire name. */
  private static final class Name {
    final MethodDescriptor<?, ?> method;
    final byte[] bytes;

    Name(MethodDescriptor<?, ?> method, byte[] bytes) {
      this.method = method;
      this.bytes = bytes;
    }
  }
}
