package io.boltgen.micrometer;

import static io.boltgen.micrometer.TestService.ECHO;
import static io.boltgen.micrometer.TestService.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.BoltServer;
import io.boltgen.runtime.CallOptions;
import io.boltgen.runtime.ServiceDefinition;
import io.boltgen.testing.Closer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
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
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** docs/observability.md's code, as written: every line of its Java blocks is here, and runs. */
class ObservabilityDocsTest {

  private final Closer closer = new Closer();

  @AfterEach
  void close() throws Exception {
    closer.close();
  }

  private static List<String> withoutComments(List<String> lines) {
    return lines.stream().map(l -> l.replaceAll("\\s*//.*$", "").strip()).filter(l -> !l.isEmpty()).toList();
  }

  @Test
  void everyLineOfTheDocsCodeIsInThisTest() throws Exception {
    List<String> code = new ArrayList<>();
    boolean in = false;
    int blocks = 0;
    for (String line : Files.readAllLines(Path.of("..", "docs", "observability.md"))) {
      if (line.equals("```java")) {
        in = true;
        blocks++;
      } else if (line.equals("```")) {
        in = false;
      } else if (in) {
        code.add(line);
      }
    }
    assertThat(blocks).isEqualTo(2);
    List<String> here = withoutComments(
        Files.readAllLines(Path.of("src/test/java/io/boltgen/micrometer/ObservabilityDocsTest.java")));
    assertThat(here).containsAll(withoutComments(code));
  }

  @Test
  void theDocsCodeRecordsTimersGaugesAndSpans() throws Exception {
    InMemorySpanExporter spans = InMemorySpanExporter.create();
    OpenTelemetrySdk otel = closer.track(OpenTelemetrySdk.builder()
        .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(spans)).build())
        .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
        .build());
    ServiceDefinition service = new TestService().definition();

    MeterRegistry meters = new SimpleMeterRegistry();
    ObservationRegistry observations = ObservationRegistry.create();
    observations.observationConfig().observationHandler(new DefaultMeterObservationHandler(meters));
    BoltServer server = BoltServer.builder()
        .bind("127.0.0.1", 0)
        .service(service)
        .serverInterceptor(BoltObservations.serverInterceptor(observations))
        .clientInterceptor(BoltObservations.clientInterceptor(observations))
        .build();
    BoltClient client = BoltClient.builder()
        .clientInterceptor(BoltObservations.clientInterceptor(observations))
        .build();
    BoltConnectionMetrics.of(client, Tags.of("client", "orders")).bindTo(meters);
    BoltConnectionMetrics.of(server, Tags.of("server", "inventory")).bindTo(meters);
    closer.track(client);
    closer.track(server.start());

    io.opentelemetry.api.trace.Tracer otelTracer = otel.getTracer("boltgen");
    Tracer tracer = new OtelTracer(otelTracer, new OtelCurrentTraceContext(), event -> { });
    Propagator propagator = new OtelPropagator(otel.getPropagators(), otelTracer);
    observations.observationConfig().observationHandler(new ObservationHandler.FirstMatchingCompositeObservationHandler(
        new PropagatingSenderTracingObservationHandler<>(tracer, propagator),
        new PropagatingReceiverTracingObservationHandler<>(tracer, propagator),
        new DefaultTracingObservationHandler(tracer)));

    assertThat(client.channel("127.0.0.1:" + server.port()).invokeSync(ECHO, bytes("hi"), CallOptions.DEFAULT))
        .isEqualTo(bytes("hi"));
    await().atMost(Duration.ofSeconds(5)).until(() -> spans.getFinishedSpanItems().size() == 2
        && meters.find("boltgen.server.calls").timer() != null);
    assertThat(meters.get("boltgen.client.calls").tags("method", "echo", "status", "SUCCESS").timer().count())
        .isEqualTo(1);
    assertThat(meters.get("boltgen.server.calls").tags("method", "echo", "status", "SUCCESS").timer().count())
        .isEqualTo(1);
    assertThat(meters.get("boltgen.client.connections").tag("client", "orders").gauge().value()).isEqualTo(1);
    assertThat(meters.get("boltgen.server.connections").tag("server", "inventory").gauge().value()).isEqualTo(1);
    assertThat(spans.getFinishedSpanItems()).extracting(s -> s.getKind().name() + " " + s.getName())
        .containsExactlyInAnyOrder("CLIENT test.Echo/echo", "SERVER test.Echo/echo");
    assertThat(spans.getFinishedSpanItems()).extracting(s -> s.getTraceId()).as("one trace").containsOnly(
        spans.getFinishedSpanItems().get(0).getTraceId());
  }
}
