package io.boltgen.runtime.internal.server;

import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.call.ServerCalls;
import java.nio.charset.StandardCharsets;

/**
 * A served method as Bolt finds and answers it: the one call path's handle of it ({@link ServerCalls.Method})
 * and the UTF-8 className of its answers.
 *
 * <p>Immutable.
 */
final class MethodEntry {

  private final ServerCalls.Method handle;
  private final byte[] responseClassName;

  private final MethodDescriptor<?, ?> method;

  MethodEntry(ServerCalls.Method handle) {
    this.handle = handle;
    this.method = handle.descriptor();
    this.responseClassName = method.responseClassName().getBytes(StandardCharsets.UTF_8);
  }

  /** An entry of {@code method} without a handle: for checking a table, never for serving. */
  MethodEntry(MethodDescriptor<?, ?> method) {
    this.handle = null;
    this.method = method;
    this.responseClassName = new byte[0];
  }

  /** What the one call path serves the method by. */
  ServerCalls.Method handle() {
    return handle;
  }

  MethodDescriptor<?, ?> method() {
    return method;
  }

  /** The UTF-8 className of this method's responses (shared: never modify it). */
  byte[] responseClassName() {
    return responseClassName;
  }

  @Override
  public String toString() {
    return method.toString();
  }
}
