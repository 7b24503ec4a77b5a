package io.boltgen.hessian;

/**
 * How generated code reads and writes one Java type (a record mapped to a Java class of the SOFARPC side) as a
 * Hessian object: its class definition, and its field values in the order of a definition.
 *
 * <p>Implementations are stateless and shared: a {@link HessianReader} resolves a back-reference to an object
 * only for the same {@code HessianType} (by {@code equals}) that read it first.
 *
 * @param <T> the Java type
 */
public interface HessianType<T> {

  /** The definition {@link HessianWriter#writeObject} writes: the class name of the peer and its fields. */
  HessianClass hessianClass();

  /** Writes the values of {@code hessianClass().fieldNames()}, in that order, one value each. */
  void writeFields(HessianWriter out, T value);

  /**
   * Reads {@code sent.fieldCount()} values, in the order of {@code sent}: the definition the peer sent, which
   * may list the fields in another order, omit some (they get their defaults) or add unknown ones (skip those
   * with {@link HessianReader#skipValue}). Returns the value built from them.
   */
  T readFields(HessianReader in, HessianClass sent);
}
