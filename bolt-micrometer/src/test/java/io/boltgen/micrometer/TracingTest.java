package io.boltgen.micrometer;

import static io.boltgen.micrometer.TestService.HEADER;
import static io.boltgen.micrometer.TestService.bytes;
import static io.boltgen.micrometer.TestService.string;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.boltgen.runtime.BoltChannel;
import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.BoltServer;
import io.boltgen.runtime.CallOptions;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.ServerContext;
import io.boltgen.runtime.ServiceDefinition;
import io.boltgen.testing.Closer;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingReceiverTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingSenderTracingObservationHandler;
import io.micrometer.tracing.otel.bridge.OtelCurrentTraceContext;
import io.micrometer.tracing.otel.bridge.OtelPropagator;
import io.micrometer.tracing.otel.bridge.OtelTracer;
import io.micrometer.tracing.propagation.Propagator;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Spans through Micrometer Tracing's OpenTelemetry bridge, exported in memory: a call's client span is the
 * parent of the server's span through the {@code traceparent} Bolt header, and so is a call back over the
 * server's connection to its client (duplex), in the same trace.
 */
class TracingTest {

  private final Closer closer = new Closer();
  private final TestService service = new TestService();
  private final InMemorySpanExporter spans = InMemorySpanExporter.create();
  private final ObservationRegistry observations = ObservationRegistry.create();

  TracingTest() {
    SdkTracerProvider provider = SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(spans)).build();
    closer.track(provider);
    io.opentelemetry.api.trace.Tracer otelTracer = provider.get("boltgen-test");
    Tracer tracer = new OtelTracer(otelTracer, new OtelCurrentTraceContext(), event -> { });
    Propagator propagator = new OtelPropagator(
        ContextPropagators.create(W3CTraceContextPropagator.getInstance()), otelTracer);
    observations.observationConfig().observationHandler(new ObservationHandler.FirstMatchingCompositeObservationHandler(
        new PropagatingSenderTracingObservationHandler<>(tracer, propagator),
        new PropagatingReceiverTracingObservationHandler<>(tracer, propagator),
        new DefaultTracingObservationHandler(tracer)));
  }

  @AfterEach
  void close() throws Exception {
    closer.close();
  }

  private SpanData span(SpanKind kind, String name) {
    return spans.getFinishedSpanItems().stream().filter(s -> s.getKind() == kind && s.getName().equals(name))
        .findFirst().orElseThrow(() -> new AssertionError("no " + kind + " span " + name + " in " + names()));
  }

  private List<String> names() {
    return spans.getFinishedSpanItems().stream().map(s -> s.getKind() + " " + s.getName()).toList();
  }

  @Test
  void aClientSpanIsTheParentOfTheServersSpanThroughTheBoltHeaders() {
    BoltServer server = closer.track(BoltServer.builder().bind("127.0.0.1", 0).service(service.definition())
        .serverInterceptor(BoltObservations.serverInterceptor(observations)).build().start());
    BoltClient client = closer.track(BoltClient.builder()
        .clientInterceptor(BoltObservations.clientInterceptor(observations)).build());
    BoltChannel channel = client.channel("127.0.0.1:" + server.port());

    Observation checkout = Observation.start("checkout", observations);
    String traceparent;
    try {
      traceparent = checkout.scoped(() -> string(channel.invokeSync(HEADER, bytes("traceparent"), CallOptions.DEFAULT)));
    } finally {
      checkout.stop();
    }

    await().atMost(Duration.ofSeconds(5)).until(() -> spans.getFinishedSpanItems().size() == 3);
    SpanData outer = span(SpanKind.INTERNAL, "checkout");
    SpanData sent = span(SpanKind.CLIENT, "test.Echo/header");
    SpanData served = span(SpanKind.SERVER, "test.Echo/header");
    assertThat(sent.getTraceId()).isEqualTo(outer.getTraceId());
    assertThat(sent.getParentSpanId()).isEqualTo(outer.getSpanId());
    assertThat(served.getTraceId()).isEqualTo(sent.getTraceId());
    assertThat(served.getParentSpanId()).isEqualTo(sent.getSpanId());
    assertThat(served.getParentSpanContext().isRemote()).isTrue();
    assertThat(traceparent).as("W3C trace context in the request's header map")
        .startsWith("00-" + sent.getTraceId() + "-" + sent.getSpanId() + "-");
    assertThat(sent.getAttributes().asMap().toString()).contains("status=SUCCESS", "side=client", "method=header",
        "remote.address=127.0.0.1:" + server.port());
    assertThat(served.getAttributes().asMap().toString()).contains("status=SUCCESS", "side=server");
  }

  @Test
  void anHttpCallsTraceparentHeaderIsTheParentOfTheServersSpan() throws Exception {
    BoltServer server = closer.track(BoltServer.builder().bind("127.0.0.1", 0).service(service.definition())
        .serverInterceptor(BoltObservations.serverInterceptor(observations)).http(true).build().start());
    String traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    String parentId = "00f067aa0ba902b7";
    HttpResponse<String> answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + server.port() + "/test.Echo/header"))
        .timeout(Duration.ofSeconds(10))
        .header("Content-Type", "application/proto")
        .header("traceparent", "00-" + traceId + "-" + parentId + "-01")
        .POST(HttpRequest.BodyPublishers.ofString("traceparent")).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(answer.body()).isEqualTo("00-" + traceId + "-" + parentId + "-01");

    await().atMost(Duration.ofSeconds(5)).until(() -> spans.getFinishedSpanItems().size() == 1);
    SpanData served = span(SpanKind.SERVER, "test.Echo/header");
    assertThat(served.getTraceId()).isEqualTo(traceId);
    assertThat(served.getParentSpanId()).isEqualTo(parentId);
    assertThat(served.getParentSpanContext().isRemote()).isTrue();
    assertThat(served.getAttributes().asMap().toString()).contains("status=SUCCESS", "side=server");
  }

  @Test
  void aCallBackOverTheServersConnectionJoinsTheSameTrace() {
    MethodDescriptor<byte[], byte[]> ping = TestService.method("ping");
    MethodDescriptor<byte[], byte[]> back = TestService.method("back");
    BoltServer server = closer.track(BoltServer.builder().bind("127.0.0.1", 0)
        .service(ServiceDefinition.builder("test.Echo", "1.0").method(ping, (request, call) -> call.respond(
            ServerContext.current().connection().channel().invokeSync(back, request, CallOptions.DEFAULT))).build())
        .serverInterceptor(BoltObservations.serverInterceptor(observations))
        .clientInterceptor(BoltObservations.clientInterceptor(observations))
        .build().start());
    BoltClient client = closer.track(BoltClient.builder()
        .service(ServiceDefinition.builder("test.Echo", "1.0").method(back, (request, call) -> call.respond(
            bytes("back " + ServerContext.current().headers().containsKey("traceparent")))).build())
        .clientInterceptor(BoltObservations.clientInterceptor(observations))
        .serverInterceptor(BoltObservations.serverInterceptor(observations))
        .build());

    assertThat(string(client.channel("127.0.0.1:" + server.port()).invokeSync(ping, bytes("p"), CallOptions.DEFAULT)))
        .isEqualTo("back true");

    await().atMost(Duration.ofSeconds(5)).until(() -> spans.getFinishedSpanItems().size() == 4);
    SpanData clientPing = span(SpanKind.CLIENT, "test.Echo/ping");
    SpanData serverPing = span(SpanKind.SERVER, "test.Echo/ping");
    SpanData serverBack = span(SpanKind.CLIENT, "test.Echo/back");
    SpanData clientBack = span(SpanKind.SERVER, "test.Echo/back");
    assertThat(List.of(serverPing, serverBack, clientBack)).extracting(SpanData::getTraceId)
        .containsOnly(clientPing.getTraceId());
    assertThat(clientPing.getParentSpanContext().isValid()).as("the trace starts at the client").isFalse();
    assertThat(serverPing.getParentSpanId()).isEqualTo(clientPing.getSpanId());
    assertThat(serverBack.getParentSpanId()).as("the handler's scope parents its call back")
        .isEqualTo(serverPing.getSpanId());
    assertThat(clientBack.getParentSpanId()).isEqualTo(serverBack.getSpanId());
    assertThat(clientBack.getParentSpanContext().isRemote()).isTrue();
  }
}
