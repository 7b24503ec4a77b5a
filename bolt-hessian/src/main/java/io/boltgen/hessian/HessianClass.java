package io.boltgen.hessian;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.util.List;
import java.util.Objects;

/**
 * A Hessian class definition: a class name and its field names, in order. Immutable; one built with
 * {@link #of} holds its encoded definition, written once per stream by {@link HessianWriter#writeObject}.
 * Two definitions are equal when their class names and field names are.
 */
public final class HessianClass {

  private final String className;
  private final List<String> fieldNames;
  /** What follows {@code 'O'}: {@code int(nameLength) nameChars int(fieldCount) string*}; null when read. */
  private final byte[] definition;

  private HessianClass(String className, List<String> fieldNames, boolean encode) {
    this.className = className;
    this.fieldNames = fieldNames;
    this.definition = encode ? encode(className, fieldNames) : null;
  }

  /**
   * The definition of {@code className} (the Java class name of the peer, e.g. {@code com.example.Order})
   * with {@code fieldNames} in the order their values are written.
   *
   * @throws IllegalArgumentException if the class name is empty or a name is null
   */
  public static HessianClass of(String className, String... fieldNames) {
    Objects.requireNonNull(className, "className");
    if (className.isEmpty()) {
      throw new IllegalArgumentException("a Hessian class needs a name");
    }
    for (String name : fieldNames) {
      if (name == null) {
        throw new IllegalArgumentException("a field name of " + className + " is null");
      }
    }
    return new HessianClass(className, List.of(fieldNames), true);
  }

  /** A definition read from a stream (no null names): not encoded again. */
  static HessianClass received(String className, String[] fieldNames) {
    return new HessianClass(className, List.of(fieldNames), false);
  }

  /** The class name. */
  public String className() {
    return className;
  }

  /** The field names, in order (unmodifiable). */
  public List<String> fieldNames() {
    return fieldNames;
  }

  /** How many fields the definition lists. */
  public int fieldCount() {
    return fieldNames.size();
  }

  /** The name of field {@code i}, {@code 0 <= i < fieldCount()}. */
  public String fieldName(int i) {
    return fieldNames.get(i);
  }

  /** The bytes after {@code 'O'}. */
  byte[] definition() {
    return definition != null ? definition : encode(className, fieldNames);
  }

  private static byte[] encode(String className, List<String> fieldNames) {
    ByteBuf buf = Unpooled.buffer();
    try {
      HessianWriter out = HessianWriter.to(buf);
      out.writeInt(className.length());
      out.writeChars(className, 0, className.length());
      out.writeInt(fieldNames.size());
      for (String name : fieldNames) {
        out.writeString(name);
      }
      return ByteBufUtil.getBytes(buf);
    } finally {
      buf.release();
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof HessianClass other && className.equals(other.className)
        && fieldNames.equals(other.fieldNames);
  }

  @Override
  public int hashCode() {
    return className.hashCode() * 31 + fieldNames.hashCode();
  }

  @Override
  public String toString() {
    return className + fieldNames;
  }
}
