package io.boltgen.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.common.KeyValue;
import io.micrometer.core.instrument.Meter;
import io.micrometer.observation.Observation;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.otel.bridge.OtelTracer;
import java.io.IOException;
import java.net.URL;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Micrometer jars the tests run on are the ones the surefire execution names: the default execution's
 * (the versions the module is compiled against) or the older ones Spring Boot 4.0.x manages (the
 * {@code micrometer-1.16} execution). Without this, an execution whose class path still held the newer jars
 * would pass and prove nothing. Run outside Maven (no expected version set), it fails too.
 */
class MicrometerVersionTest {

  private static final String MICROMETER = "boltgen.test.micrometer.version";
  private static final String TRACING = "boltgen.test.micrometer-tracing.version";

  static Stream<Arguments> jars() {
    return Stream.of(
        Arguments.of("micrometer-commons", MICROMETER, KeyValue.class),
        Arguments.of("micrometer-observation", MICROMETER, Observation.class),
        Arguments.of("micrometer-core", MICROMETER, Meter.class),
        Arguments.of("micrometer-tracing", TRACING, Tracer.class),
        Arguments.of("micrometer-tracing-bridge-otel", TRACING, OtelTracer.class));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("jars")
  void theTestsRunOnTheVersionTheExecutionExpects(String artifact, String property, Class<?> type)
      throws Exception {
    String expected = System.getProperty(property);
    assertThat(expected).as("system property %s, set by the surefire execution", property).isNotBlank();

    assertThat(type.getPackage().getImplementationVersion()).as("%s's manifest", artifact).isEqualTo(expected);
    // one jar only holds the class, the expected one: the other version is not on the class path at all
    assertThat(copies(type)).as("where %s is on the class path", type.getName())
        .singleElement()
        .satisfies(url -> assertThat(url.toString()).contains("/" + artifact + "-" + expected + ".jar!"));
  }

  private static List<URL> copies(Class<?> type) throws IOException {
    return Collections.list(MicrometerVersionTest.class.getClassLoader()
        .getResources(type.getName().replace('.', '/') + ".class"));
  }
}
