package io.boltgen.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Optional per-method settings of a {@link BoltService} method: its name on the wire and its timeout.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface BoltMethod {

  /** The method name on the wire; empty means the Java method name. */
  String name() default "";

  /** This method's timeout in milliseconds; 0 means the service default. */
  long timeoutMillis() default 0;
}
