package io.boltgen.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a {@code void} service method as oneway: the request is sent and forgotten. The server sends no
 * response, so the caller learns of no error, not even a missing service; use it for fire-and-forget
 * events only.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Oneway {}
