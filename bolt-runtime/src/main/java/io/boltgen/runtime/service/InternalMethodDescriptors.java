package io.boltgen.runtime.service;

/**
 * Runtime-internal access to precomputed parts of a {@link MethodDescriptor}. Not API: the arrays are
 * shared and must never be modified.
 */
public final class InternalMethodDescriptors {

  private InternalMethodDescriptors() {}

  /** The UTF-8 bytes of {@link MethodDescriptor#wireName()}. */
  public static byte[] wireNameUtf8(MethodDescriptor<?, ?> method) {
    return method.wireNameUtf8;
  }

  /** The UTF-8 bytes of {@link MethodDescriptor#responseClassName()}. */
  public static byte[] responseClassNameUtf8(MethodDescriptor<?, ?> method) {
    return method.responseClassNameUtf8;
  }
}
