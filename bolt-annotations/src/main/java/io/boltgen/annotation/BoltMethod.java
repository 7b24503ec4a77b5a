package io.boltgen.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Optional per-method settings of a {@link BoltService} method.
 *
 * <p>Command codes are all-or-nothing within a service: either every method sets {@link #code()} or none
 * does. Without explicit codes each method's code is derived from its wire name (a stable hash, see
 * docs/wire-format.md), so reordering methods never changes the wire; two names that hash alike are a
 * compile error asking for explicit codes.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface BoltMethod {

  /** The method name on the wire; empty means the Java method name. */
  String name() default "";

  /** The method's command code, 1..32767; 0 means derived from the wire name. */
  int code() default 0;

  /** This method's timeout in milliseconds; 0 means the service default. */
  long timeoutMillis() default 0;
}
