package io.boltgen.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Optional settings of a record (or enum) used as a message. Records need not carry it: every record
 * reachable from a service signature is a message.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.TYPE)
public @interface BoltMessage {

  /** The message name in the generated {@code .proto}; empty means the simple name, nesting joined by '_'. */
  String name() default "";

  /** Field numbers that must never be used again (fields that were removed). */
  int[] reserved() default {};
}
