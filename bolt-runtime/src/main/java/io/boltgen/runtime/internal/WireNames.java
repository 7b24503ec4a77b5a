package io.boltgen.runtime.internal;

import io.boltgen.runtime.MethodDescriptor;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The UTF-8 bytes of each method's wire name and response class name, computed once per descriptor and
 * shared: the arrays must never be modified. Descriptors are constants of generated or hand-built
 * services, so the cache holds one entry per method the process calls or serves.
 *
 * <p>Thread-safe.
 */
final class WireNames {

  private static final ConcurrentHashMap<MethodDescriptor<?, ?>, Names> CACHE = new ConcurrentHashMap<>();

  private WireNames() {}

  /** The bytes of {@link MethodDescriptor#wireName()}: a request's className. */
  static byte[] wireName(MethodDescriptor<?, ?> method) {
    return of(method).wireName;
  }

  /** The bytes of {@link MethodDescriptor#responseClassName()}: a response's className. */
  static byte[] responseClassName(MethodDescriptor<?, ?> method) {
    return of(method).responseClassName;
  }

  private static Names of(MethodDescriptor<?, ?> method) {
    Names names = CACHE.get(method);
    return names != null ? names : CACHE.computeIfAbsent(method, Names::new);
  }

  private static final class Names {
    final byte[] wireName;
    final byte[] responseClassName;

    Names(MethodDescriptor<?, ?> method) {
      this.wireName = method.wireName().getBytes(StandardCharsets.UTF_8);
      this.responseClassName = method.responseClassName().getBytes(StandardCharsets.UTF_8);
    }
  }
}
