package io.boltgen.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Pins the protobuf number of an enum constant.
 *
 * <p>Numbering is all-or-nothing per enum. Without this annotation an enum's constants are numbered by
 * declaration order ({@code ordinal()}), which stays compatible only as long as constants are appended.
 * Pin numbers as soon as constants must be reordered or removed. One constant must be numbered 0 (proto3's
 * default value: what a peer that sends nothing means); numbers are unique within the enum and may be any
 * {@code int}.
 *
 * <pre>{@code
 * enum Priority {
 *   @BoltEnumValue(0) UNSPECIFIED,
 *   @BoltEnumValue(10) HIGH,
 *   @BoltEnumValue(5) LOW
 * }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.FIELD)
public @interface BoltEnumValue {

  /** The number of the constant. */
  int value();
}
