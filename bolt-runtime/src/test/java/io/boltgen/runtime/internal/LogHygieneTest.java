package io.boltgen.runtime.internal;

import static io.boltgen.runtime.EchoService.ECHO;
import static io.boltgen.runtime.EchoService.bytes;
import static io.boltgen.runtime.EchoService.string;
import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.BoltServer;
import io.boltgen.runtime.CallOptions;
import io.boltgen.runtime.EchoService;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.support.RateLimitedLog;
import io.boltgen.testing.RawFrames;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** A flood of bad or unknown requests costs a bounded number of short log lines, and no stack trace. */
class LogHygieneTest {

  @Test
  void floodsOfUnknownClassNamesAndBadFramesLogABoundedNumberOfShortLines() throws Exception {
    EchoService echo = new EchoService();
    PrintStream original = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try (BoltServer server = BoltServer.builder().bind("127.0.0.1", 0).service(echo.definition()).build().start()) {
      String hugeClassName = "evil." + "x".repeat(32 * 1024 - 10);
      try (Socket socket = new Socket("127.0.0.1", server.port())) {
        OutputStream out = socket.getOutputStream();
        InputStream in = socket.getInputStream();
        for (int id = 1; id <= 500; id++) {
          out.write(RawFrames.request(hugeClassName, id, bytes("?"), 30_000));
        }
        out.flush();
        for (int i = 0; i < 500; i++) {
          byte[] answer = RawFrames.read(in);
          assertThat(RawFrames.status(answer)).isEqualTo(ResponseStatus.NO_PROCESSOR.code());
          assertThat(answer.length).as("the answer does not echo 32 KiB back").isLessThan(2_048);
        }
      }
      byte[] corrupt = CaptureBytes.v2CrcRequest();
      corrupt[corrupt.length - 1] ^= 1;
      for (int i = 0; i < 200; i++) {
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
          socket.getOutputStream().write(corrupt);
          socket.setSoTimeout(10_000);
          assertThat(socket.getInputStream().read()).isEqualTo(-1); // closed for the bad frame
        }
      }
      try (BoltClient client = BoltClient.builder().build()) {
        assertThat(string(client.channel("127.0.0.1:" + server.port()).invokeSync(ECHO, bytes("fine"),
            CallOptions.DEFAULT))).isEqualTo("fine");
      }
    } finally {
      System.setErr(original);
    }
    List<String> lines = Arrays.asList(captured.toString(StandardCharsets.UTF_8).split("\n"));
    List<String> unknown = lines.stream().filter(l -> l.contains("no service for className")).collect(Collectors.toList());
    List<String> bad = lines.stream().filter(l -> l.contains("bad frame")).collect(Collectors.toList());
    assertThat(unknown).as("lines about unknown classNames").hasSizeLessThanOrEqualTo(RateLimitedLog.DEFAULT_LINES);
    assertThat(bad).as("lines about bad frames").hasSizeLessThanOrEqualTo(RateLimitedLog.DEFAULT_LINES);
    assertThat(lines).as("no line carries the 32 KiB className").allMatch(l -> l.length() < 1_024);
    assertThat(lines).as("no stack trace").noneMatch(l -> l.startsWith("\tat "));
  }
}
