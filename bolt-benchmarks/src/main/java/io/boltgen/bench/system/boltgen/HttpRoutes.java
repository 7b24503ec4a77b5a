package io.boltgen.bench.system.boltgen;

import io.boltgen.bench.service.EchoServiceBolt;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.ServiceDefinition;
import io.boltgen.runtime.ServiceDescriptor;
import java.util.ArrayList;
import java.util.List;

/**
 * The HTTP route of the generated {@code EchoService}. A server with {@code http(true)} serves a method at
 * {@link MethodDescriptor#httpPath()}, which needs the descriptor's {@code protoService}; a build whose processor does
 * not emit it yet (its descriptors have none: no route, every HTTP call answered 404) gets the route here instead:
 * copies of the generated descriptors with {@code protoService} = the emitted {@code .proto}'s package (that of
 * the response message's name) and service name, served by the generated invoker (which dispatches on the method
 * code), so codecs and handler stay the generated ones. Reports say so ({@link #ADDED}).
 */
public final class HttpRoutes {

  /** Whether the generated descriptors lack a route in this build, so that {@link #routed} adds it. */
  public static final boolean ADDED = EchoServiceBolt.METHOD_ECHO.httpPath() == null;

  /** The caveat a report gives when {@link #ADDED}. */
  public static final String CAVEAT = "the generated EchoServiceBolt of this build has no HTTP route"
      + " (MethodDescriptor.protoService() null): the benchmark's server added the route itself, with the generated"
      + " codecs and handler";

  private HttpRoutes() {}

  /** The path wrk posts to: {@code /<proto package>.<Service>/<method>}. */
  public static String echoPath() {
    MethodDescriptor<?, ?> m = EchoServiceBolt.METHOD_ECHO;
    return m.httpPath() != null ? m.httpPath() : "/" + protoService(m) + "/" + m.methodName();
  }

  /** {@code definition} with every method routed (unchanged when the generated descriptors have routes). */
  static ServiceDefinition routed(ServiceDefinition definition) {
    ServiceDescriptor d = definition.descriptor();
    if (d.methods().stream().allMatch(m -> m.httpPath() != null)) {
      return definition;
    }
    List<MethodDescriptor<?, ?>> methods = new ArrayList<>();
    for (MethodDescriptor<?, ?> m : d.methods()) {
      methods.add(m.httpPath() != null ? m : copy(m, protoService(m)));
    }
    return ServiceDefinition.of(ServiceDescriptor.of(d.name(), d.version(), methods), definition.invoker());
  }

  /** The emitted {@code .proto}'s {@code package.Service}: the response message's package, the service's last name. */
  private static String protoService(MethodDescriptor<?, ?> m) {
    String response = m.responseClassName();
    String pkg = response.substring(0, Math.max(0, response.lastIndexOf('.')));
    String service = m.serviceName().substring(m.serviceName().lastIndexOf('.') + 1);
    return pkg.isEmpty() ? service : pkg + "." + service;
  }

  private static <Q, R> MethodDescriptor<Q, R> copy(MethodDescriptor<Q, R> m, String protoService) {
    MethodDescriptor.Builder<Q, R> b = MethodDescriptor.newBuilder(m.requestMarshaller(), m.responseMarshaller())
        .serviceName(m.serviceName()).serviceVersion(m.serviceVersion()).methodName(m.methodName())
        .wireName(m.wireName()).responseClassName(m.responseClassName()).methodCode(m.methodCode()).type(m.type())
        .timeoutMillis(m.timeoutMillis()).errorMapper(m.errorMapper()).idempotent(m.idempotent())
        .protoService(protoService);
    m.aliases().forEach(b::alias);
    if (m.requestJson() != null && m.responseJson() != null) {
      b.json(m.requestJson(), m.responseJson());
    }
    return b.build();
  }
}
