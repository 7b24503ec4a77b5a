package io.boltgen.runtime.internal;

import io.boltgen.runtime.MethodDescriptor;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The UTF-8 bytes of each method's wire name (a request's className), computed once per descriptor and
 * shared: the arrays must never be modified. Descriptors are constants of generated or hand-built
 * services, so the cache holds one entry per method the process calls. (A served method keeps its
 * response's className in its {@link MethodEntry}.)
 *
 * <p>Thread-safe.
 */
final class WireNames {

  private static final ConcurrentHashMap<MethodDescriptor<?, ?>, byte[]> CACHE = new ConcurrentHashMap<>();

  private WireNames() {}

  /** The bytes of {@link MethodDescriptor#wireName()}: a request's className. */
  static byte[] wireName(MethodDescriptor<?, ?> method) {
    byte[] name = CACHE.get(method);
    return name != null ? name : CACHE.computeIfAbsent(method, m -> m.wireName().getBytes(StandardCharsets.UTF_8));
  }
}
