package io.boltgen.bench.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** wrk's report as wrk 4 prints it, the Lua string of a binary body, and where wrk is. */
class WrkTest {

  private static final String CLEAN = """
      Running 10s test @ http://127.0.0.1:40123/bench.echo.Echo/echo
        2 threads and 64 connections
        Thread Stats   Avg      Stdev     Max   +/- Stdev
          Latency   635.91us    0.89ms  12.92ms   93.70%
          Req/Sec    56.20k     8.07k   62.00k    86.54%
        Latency Distribution
           50%  250.00us
           75%  491.00us
           90%    1.20ms
           99%    5.00ms
        1123362 requests in 10.00s, 141.42MB read
      Requests/sec: 112324.36
      Transfer/sec:     14.14MB
      """;

  private static final String ERRORS = """
      Running 1s test @ http://127.0.0.1:40123/x
        2 threads and 64 connections
        Thread Stats   Avg      Stdev     Max   +/- Stdev
          Latency     1.02s   300.00ms   1.99s    70.00%
          Req/Sec     3.00      2.00     9.00     80.00%
        Latency Distribution
           50%     1.01s
           75%     1.50s
           90%     1.90s
           99%     1.99s
        57 requests in 1.00m, 9.12KB read
        Socket errors: connect 0, read 3, write 1, timeout 12
        Non-2xx or 3xx responses: 57
      Requests/sec:      0.95
      Transfer/sec:     155.52B
      """;

  @Test
  void readsRequestsRateAndPercentilesInTheirUnits() {
    Wrk.Report r = Wrk.parse(CLEAN);
    assertThat(r.requests()).isEqualTo(1123362);
    assertThat(r.seconds()).isCloseTo(10, within(1e-9));
    assertThat(r.requestsPerSecond()).isCloseTo(112324.36, within(1e-6));
    assertThat(r.p50Us()).isCloseTo(250, within(1e-9));
    assertThat(r.p75Us()).isCloseTo(491, within(1e-9));
    assertThat(r.p90Us()).isCloseTo(1200, within(1e-9));
    assertThat(r.p99Us()).isCloseTo(5000, within(1e-9));
    assertThat(r.maxUs()).isCloseTo(12920, within(1e-9));
    assertThat(r.errors()).isZero();
    assertThat(r.errorText()).isEmpty();
  }

  @Test
  void countsNon2xxAndSocketErrorsAndReadsSecondsAndMinutes() {
    Wrk.Report r = Wrk.parse(ERRORS);
    assertThat(r.p50Us()).isCloseTo(1.01e6, within(1e-3));
    assertThat(r.p99Us()).isCloseTo(1.99e6, within(1e-3));
    assertThat(r.seconds()).isCloseTo(60, within(1e-9));
    assertThat(r.non2xx()).isEqualTo(57);
    assertThat(r.readErrors()).isEqualTo(3);
    assertThat(r.writeErrors()).isEqualTo(1);
    assertThat(r.timeouts()).isEqualTo(12);
    assertThat(r.errors()).isEqualTo(57 + 3 + 1 + 12);
    assertThat(r.errorText()).contains("non-2xx 57").contains("timeout 12");
  }

  @Test
  void refusesAReportWithoutItsNumbers() {
    assertThatThrownBy(() -> Wrk.parse("unable to connect to 127.0.0.1:1 Connection refused\n"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Connection refused");
    String noLatency = CLEAN.substring(0, CLEAN.indexOf("  Latency Distribution")) + CLEAN.substring(CLEAN.indexOf(
        "  1123362"));
    assertThatThrownBy(() -> Wrk.parse(noLatency)).hasMessageContaining("--latency");
  }

  @Test
  void luaStringsCarryEveryByteWithThreeDigitEscapes() {
    byte[] body = {0x0a, 0x64, '1', '"', '\\', (byte) 0xff, 0, '7'};
    // \010 then 'd', '1', an escaped quote and backslash, \255, \000 followed by a digit that stays a digit
    assertThat(Wrk.luaString(body)).isEqualTo("\"\\010d1\\034\\092\\255\\0007\"");
    assertThat(Wrk.script("application/proto", new byte[] {1})).contains("wrk.method = \"POST\"")
        .contains("wrk.headers[\"Content-Type\"] = \"application/proto\"").contains("wrk.body = \"\\001\"");
  }

  @Test
  void commandLineTakesWholeSeconds(@TempDir Path dir) {
    assertThat(Wrk.command(Path.of("/usr/bin/wrk"), 2, 64, Duration.ofMillis(1400), dir.resolve("s.lua"), "http://h/p"))
        .containsExactly("/usr/bin/wrk", "-t2", "-c64", "-d1s", "--latency", "-s", dir.resolve("s.lua").toString(),
            "http://h/p");
    assertThat(Wrk.seconds(Duration.ofMillis(200))).isEqualTo(1);
  }

  @Test
  void withoutWrkSaysWhatToInstall(@TempDir Path dir) throws Exception {
    assertThatThrownBy(() -> Wrk.find(null, dir.toString())).hasMessageContaining("install wrk (apt-get install wrk)");
    assertThatThrownBy(() -> Wrk.find(dir.resolve("wrk").toString(), null))
        .hasMessageContaining("install wrk (apt-get install wrk)");
    Path fake = dir.resolve("wrk");
    Files.writeString(fake, "#!/bin/sh\n", StandardCharsets.UTF_8);
    assertThat(fake.toFile().setExecutable(true)).isTrue();
    assertThat(Wrk.find(null, "/nonexistent:" + dir)).isEqualTo(fake);
  }
}
