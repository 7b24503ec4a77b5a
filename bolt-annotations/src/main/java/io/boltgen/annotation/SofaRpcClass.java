package io.boltgen.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The Java class a record, an enum or an exception is known by on the SOFARPC side, for services in the
 * {@link SofaRpcService} dialect.
 *
 * <p>A record of a {@link SofaRpcService.Serializer#HESSIAN2 Hessian2} service is written as an object of that
 * class whose fields are the record's components, by name; an enum as that enum, by constant name. A declared
 * exception travels as that class both ways: a SOFARPC consumer receives an instance of it, and a SOFARPC
 * provider's exception of that class becomes this one. Without the annotation a type is known by its own
 * binary name.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.TYPE)
public @interface SofaRpcClass {

  /** The binary name of the class on the SOFARPC side, for example {@code com.example.Greeting}. */
  String value();
}
