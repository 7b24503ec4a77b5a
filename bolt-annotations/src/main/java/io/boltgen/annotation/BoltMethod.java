package io.boltgen.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Optional per-method settings of a {@link BoltService} method.
 *
 * <p>A method code keys the generated skeleton's {@code switch}; it never travels on the wire (a request
 * names its method by className). Method codes are all-or-nothing within a service: either every method sets
 * {@link #code()} or none does. Without explicit codes each method's code is derived from its wire name (a
 * stable hash), so it does not depend on declaration order; two names that hash alike are a compile error
 * asking for explicit codes.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface BoltMethod {

  /** The method name on the wire; empty means the Java method name. */
  String name() default "";

  /** The method code the generated skeleton dispatches on, 1..32767; 0 means derived from the wire name. */
  int code() default 0;

  /** This method's timeout in milliseconds; 0 means the service default. */
  long timeoutMillis() default 0;
}
