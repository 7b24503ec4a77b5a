package io.boltgen.runtime.support;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Not API: a type that is public only so that boltgen's own modules (the registries) share it with the
 * runtime. It may change or go in any release, without notice; applications must not use it. Every public
 * type of {@code io.boltgen.runtime.support}, and nothing else, carries it ({@code ArchitectureTest}).
 */
@Internal
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.TYPE)
public @interface Internal {}
