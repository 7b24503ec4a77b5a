/**
 * Spring Boot auto-configuration of boltgen: a client bean per configured service, typed as its interface;
 * a server exporting opted-in beans, started and drained with the context; health contributors.
 * See {@code docs/spring.md}.
 */
package io.boltgen.spring;
