package io.boltgen.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Exports a bean on the auto-configured {@link io.boltgen.runtime.BoltServer}: every {@code @BoltService}
 * interface the bean's class implements is served by the bean. A bean that implements a service interface
 * without this annotation (or without its service listed in {@code boltgen.server.services}) is not exported.
 *
 * <p>On a class that is a bean (a {@code @Component}) or on the class a {@code @Bean} method returns.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface BoltExport {}
