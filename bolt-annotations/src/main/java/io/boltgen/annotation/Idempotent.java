package io.boltgen.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a request-response method of a {@link BoltService} as safe to run more than once: a client that
 * balances over several instances may send it again, to another instance, after its request was already
 * written (its connection closed before the answer, the server was too busy), within the call's timeout and
 * the client's retry budget. A method without it is sent again only if its request never left the client.
 *
 * <p>Put it on reads, and on writes that carry their own deduplication key. A oneway method cannot be
 * idempotent (nothing tells the client it failed): the processor rejects the combination.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Idempotent {}
