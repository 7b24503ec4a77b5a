package io.boltgen.runtime.http;

import static io.boltgen.runtime.http.RawHttp2.CANCEL;
import static io.boltgen.runtime.http.RawHttp2.CONTINUATION;
import static io.boltgen.runtime.http.RawHttp2.END_HEADERS;
import static io.boltgen.runtime.http.RawHttp2.ENHANCE_YOUR_CALM;
import static io.boltgen.runtime.http.RawHttp2.HEADERS;
import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.runtime.BoltServer;
import io.boltgen.runtime.EchoService;
import io.boltgen.runtime.support.RateLimitedLog;
import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The HTTP side of the Bolt port under the attacks real attackers use, written frame by frame by
 * {@link RawHttp2} and byte by byte by {@link RawHttp}: a connection error gets the GOAWAY code Netty's
 * HTTP/2 codec chose, never a graceful NO_ERROR; a refusal an outsider can cause logs rate-limited lines
 * without a stack trace; a Bolt call on the same port is served throughout.
 */
class HttpAttackTest {

  private static final Duration BOUND = Duration.ofSeconds(10);
  private static final Duration FRAME_TIMEOUT = Duration.ofMillis(300);
  /** Attacking connections per flood: more than a cause's log lines per minute. */
  private static final int CONNECTIONS = RateLimitedLog.DEFAULT_LINES + 5;

  private final EchoService echo = new EchoService();
  private BoltServer server;

  @BeforeEach
  void start() {
    server = BoltServer.builder().bind("127.0.0.1", 0)
        .service(echo.definition(TextJson.FORMS))
        .frameTimeout(FRAME_TIMEOUT)
        .http(true)
        .build().start();
  }

  @AfterEach
  void stop() {
    echo.release.countDown();
    server.close();
  }

  @Test
  void aContinuationFloodGetsGoAwayWithTheCodecsCode() throws Exception {
    byte[] fragment = new byte[1024];
    Arrays.fill(fragment, (byte) 'a');
    floodedConnectionsGetGoAway("a CONTINUATION flood", h2 -> {
      h2.frame(HEADERS, 0, 1, h2.postHeaders("/test.Echo/echo", "application/json")).flush();
      flood(h2, () -> h2.frame(CONTINUATION, 0, 1, fragment), 1_000);
    });
  }

  @Test
  void aResetFloodGetsGoAwayWithTheCodecsCode() throws Exception {
    floodedConnectionsGetGoAway("a reset flood", h2 -> {
      byte[] headers = h2.postHeaders("/test.Echo/echo", "application/json");
      int[] stream = {1};
      flood(h2, () -> {
        h2.frame(HEADERS, END_HEADERS, stream[0], headers).reset(stream[0], CANCEL);
        stream[0] += 2;
      }, 1_000);
    });
  }

  /**
   * {@value #CONNECTIONS} connections, one after the other, each flooded by {@code attack}: each gets a GOAWAY
   * with ENHANCE_YOUR_CALM and is closed; then a Bolt call is served, and the log stayed quiet.
   */
  private void floodedConnectionsGetGoAway(String what, Attack attack) throws Exception {
    try (CapturedStderr log = CapturedStderr.start(); BoltProbe bolt = BoltProbe.open(server)) {
      for (int connection = 0; connection < CONNECTIONS; connection++) {
        try (RawHttp2 h2 = RawHttp2.connect(server.port())) {
          attack.on(h2);
          RawHttp2.Frame goAway = h2.goAway(BOUND);
          assertThat(goAway).as("a GOAWAY before the close").isNotNull();
          assertThat(goAway.errorCode()).as("its error code (debug data: %s)", goAway.debugData())
              .isEqualTo(ENHANCE_YOUR_CALM);
          assertThat(h2.closedWithin(BOUND)).isTrue();
        }
      }
      bolt.assertServes("after " + what);
      assertQuiet(log.lines());
    }
  }

  @Test
  void aChunkedBodyTrickledPastTheFrameTimeoutLogsOneLine() throws Exception {
    try (CapturedStderr log = CapturedStderr.start(); BoltProbe bolt = BoltProbe.open(server)) {
      try (RawHttp raw = RawHttp.connect(server.port())) {
        raw.send(String.join("\r\n", "POST /test.Echo/echo HTTP/1.1", "Host: 127.0.0.1",
            "Content-Type: application/json", "Transfer-Encoding: chunked", "", "4", "{\"te", ""));
        assertThat(raw.closedWithin(BOUND)).as("closed by the frame timeout").isTrue();
      }
      bolt.assertServes("after a trickled chunked body");
      assertQuiet(log.lines());
      assertThat(log.lines()).as("the log").noneMatch(line -> line.contains("PrematureChannelClosure"));
    }
  }

  /** Sends frames made by {@code frames} up to {@code times} times, until the server stops taking them. */
  private static void flood(RawHttp2 h2, Sender frames, int times) {
    try {
      for (int i = 0; i < times; i++) {
        frames.send();
        if (i % 50 == 49) {
          h2.flush();
        }
      }
      h2.flush();
    } catch (IOException e) {
      // the server closed the connection part way through the flood: what the tests wait for
    }
  }

  /**
   * No stack trace, nothing marked unexpected, and no more lines from the runtime than one cause's rate limit
   * (a refusal is one line, and a flood of them a bounded number).
   */
  private static void assertQuiet(List<String> lines) {
    assertThat(lines).as("the log while under attack").noneMatch(line -> line.startsWith("\tat "))
        .noneMatch(line -> line.contains("unexpected"));
    assertThat(lines.stream().filter(line -> line.contains(" WARN ") || line.contains(" INFO ")))
        .as("the runtime's lines while under attack").hasSizeLessThanOrEqualTo(RateLimitedLog.DEFAULT_LINES);
  }

  @FunctionalInterface
  private interface Sender {
    void send() throws IOException;
  }

  @FunctionalInterface
  private interface Attack {
    void on(RawHttp2 h2) throws IOException;
  }
}
