package io.boltgen.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a {@code void} service method as oneway: the request is sent and forgotten. The call returns once
 * the frame is handed to the connection (or queued until one is up); the server sends no response, so the
 * caller learns nothing of the outcome: not a missing service, not a handler's failure, not a server that
 * cannot be reached (that costs the client one log line naming the method and the address). It throws
 * only when the client refuses the call at once: the client is closed, or the connection cannot take more
 * bytes. Use it for fire-and-forget events only.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Oneway {}
