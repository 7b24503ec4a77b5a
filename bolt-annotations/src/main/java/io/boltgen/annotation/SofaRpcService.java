package io.boltgen.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Puts a {@link BoltService} in SOFARPC's dialect: its generated stub calls a SOFARPC provider of the Java
 * interface {@link #interfaceName()} over SOFARPC's {@code bolt} protocol, and its generated skeleton answers
 * SOFARPC consumers of that interface. Requests carry className {@code com.alipay.sofa.rpc.core.request.SofaRequest}
 * and SOFARPC's header; bodies are written by SOFARPC's {@link #serializer() serializer}. See docs/sofarpc.md.
 *
 * <p>With {@link Serializer#PROTOBUF}, every method takes exactly one record argument (the provider's request
 * message, matched by field number) and returns a record ({@code @Oneway} methods return nothing). With
 * {@link Serializer#HESSIAN2}, records are written as the Java classes the SOFARPC side uses (see
 * {@link SofaRpcClass}); their components may be primitives and their boxes, {@code String}, {@code byte[]},
 * {@code List}, {@code Map}, enums and other records.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.TYPE)
public @interface SofaRpcService {

  /** SOFARPC's serializers boltgen speaks. */
  enum Serializer {
    /** SOFARPC's {@code hessian2} (codec 1), its default. */
    HESSIAN2,
    /** SOFARPC's {@code protobuf} (codec 11). */
    PROTOBUF
  }

  /** The fully qualified name of the Java interface the SOFARPC side exports or refers to. */
  String interfaceName();

  /** The service's version in SOFARPC ({@code ProviderConfig.setVersion}); SOFARPC's default is {@code "1.0"}. */
  String version() default "1.0";

  /** The service's uniqueId in SOFARPC ({@code setUniqueId}); empty unless the provider sets one. */
  String uniqueId() default "";

  /** The serializer both sides use. */
  Serializer serializer() default Serializer.HESSIAN2;

  /** The provider's application name, sent as {@code sofa_head_target_app} when not empty. */
  String targetApp() default "";

  /** This side's application name, sent as the {@code app} request property when not empty. */
  String app() default "";
}
