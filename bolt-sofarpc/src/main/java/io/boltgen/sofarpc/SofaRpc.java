package io.boltgen.sofarpc;

import io.boltgen.runtime.WireProtocol;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * SOFARPC's names on the wire: its request and answer classNames, codec ids and header keys, and the header a
 * SOFARPC consumer sends with each call. Constants checked against sofa-rpc 5.13.2.
 */
public final class SofaRpc {

  /** The className of every SOFARPC request. */
  public static final String REQUEST_CLASS = "com.alipay.sofa.rpc.core.request.SofaRequest";
  /** The className of every SOFARPC answer. */
  public static final String RESPONSE_CLASS = "com.alipay.sofa.rpc.core.response.SofaResponse";
  /** The codec byte of SOFARPC's Hessian2 serializer. */
  public static final byte HESSIAN2 = 1;
  /** The codec byte of SOFARPC's protobuf serializer. */
  public static final byte PROTOBUF = 11;
  /** The header SOFARPC sets to {@code "true"} on an answer that carries a failure. */
  public static final String RESPONSE_ERROR = "sofa_head_response_error";
  /** The header naming the remote exception's class on a failure answer of a boltgen server (SOFARPC ignores it). */
  public static final String ERROR_CLASS = "boltgen.error.class";
  /** The longest failure message an answer carries, in chars; longer ones are cut. */
  public static final int MAX_MESSAGE_CHARS = 8192;
  /** The request header naming a call's service: its {@link #uniqueName unique name}. */
  public static final String TARGET_SERVICE = "sofa_head_target_service";
  /** The request header naming a call's method. */
  public static final String METHOD_NAME = "sofa_head_method_name";
  /**
   * The request headers a server tells SOFARPC's methods apart by, since they all share one className: the
   * service and the method ({@code MethodDescriptor.Builder.routingHeaders}).
   */
  public static final List<String> ROUTING_HEADERS = List.of(TARGET_SERVICE, METHOD_NAME);
  /**
   * The frames a dialect client sends: Bolt V1, as SOFARPC's consumers do (SOFABolt's {@code RpcClient} default),
   * which every SOFABolt version and Bolt-aware proxy reads. Generated descriptors of dialect services carry it
   * ({@code ServiceDescriptor.withWireProtocol}); a channel asked for with another format overrides it.
   */
  public static final WireProtocol WIRE_PROTOCOL = WireProtocol.V1;
  /**
   * The provider URL parameter (registry metadata) naming a service's serializer, {@code hessian2} or
   * {@code protobuf}, by which a SOFARPC consumer picks the codec of its calls. Generated descriptors of dialect
   * services carry it ({@code ServiceDescriptor.withRegistryMetadata}), so each service registers its own.
   */
  public static final String SERIALIZATION = "serialization";
  /** The version SOFARPC gives a service that names none. */
  public static final String DEFAULT_VERSION = "1.0";

  private SofaRpc() {}

  /**
   * SOFARPC's unique name of a service, which its requests, its registry and its providers know it by:
   * {@code interface:version}, or {@code interface:version:uniqueId} when the uniqueId is not empty.
   */
  public static String uniqueName(String interfaceName, String version, String uniqueId) {
    String base = interfaceName + ':' + version;
    return uniqueId.isEmpty() ? base : base + ':' + uniqueId;
  }

  /**
   * The header of a SOFARPC request, as a SOFARPC consumer sends it: {@code service} and
   * {@code sofa_head_target_service} (the {@link #uniqueName unique name}), {@code sofa_head_method_name},
   * {@code sofa_head_target_app} when the provider's application is known, then the consumer's request
   * properties {@code protocol} and {@code type} (the invoke type: {@code sync}, {@code future},
   * {@code callback} or {@code oneway}) and {@code app} when the consumer names its application.
   *
   * @param targetApp the provider's application, or empty
   * @param app the consumer's application, or empty
   */
  public static Map<String, String> requestHeaders(String uniqueName, String methodName, String targetApp,
      String invokeType, String app) {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("service", uniqueName);
    headers.put(TARGET_SERVICE, uniqueName);
    headers.put(METHOD_NAME, methodName);
    if (!targetApp.isEmpty()) {
      headers.put("sofa_head_target_app", targetApp);
    }
    headers.put("protocol", "bolt");
    headers.put("type", invokeType);
    if (!app.isEmpty()) {
      headers.put("app", app);
    }
    return headers;
  }
}
