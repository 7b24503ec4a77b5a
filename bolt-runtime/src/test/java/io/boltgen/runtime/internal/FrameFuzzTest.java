package io.boltgen.runtime.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.runtime.BoltServer;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.testing.LeakRecorder;
import io.boltgen.testing.RawFrames;
import io.netty.util.ResourceLeakDetector;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The frame decoder fuzzer, seeded: 50,000 mutated and valid frames (seed 20261130) through real sockets into
 * a real server, with the leak detector at paranoid (the suite's setting) and every leak it reports counted.
 * No connection may stall, the ordinary client calling alongside must never fail, and every connection must
 * be closed in the end.
 *
 * <p>The long run is this test with other settings: {@code -Dboltgen.fuzz.frames=1000000
 * -Dboltgen.fuzz.seed=2} (and {@code boltgen.fuzz.threads}, 4 by default); see docs/reliability.md.
 */
class FrameFuzzTest {

  private static final long FRAMES = Long.getLong("boltgen.fuzz.frames", 50_000);
  private static final long SEED = Long.getLong("boltgen.fuzz.seed", 20261130L);
  private static final int THREADS = Integer.getInteger("boltgen.fuzz.threads", 4);

  @Test
  void fuzzedFramesNeitherStallNorLeakNorDisturbOtherCallers() throws Exception {
    System.out.printf("fuzzing with %,d frames (seed %d, %d threads, leak detection %s)%n", FRAMES, SEED, THREADS,
        ResourceLeakDetector.getLevel());
    FrameFuzz.Report report = FrameFuzz.run(FrameFuzz.Settings.of(SEED, FRAMES, THREADS), System.out);
    List<String> leaks = LeakRecorder.collect();
    System.out.println("fuzz: " + report + "; " + leaks.size() + " buffer leak(s)");
    assertThat(report.frames()).isEqualTo(FRAMES);
    assertThat(report.stalls()).as("connections neither answered nor closed").isZero();
    assertThat(report.probes()).isPositive();
    assertThat(report.probeFailures()).as("failed calls of the ordinary client").isZero();
    assertThat(report.serverConnectionsAfter()).as("server connections left open").isZero();
    assertThat(leaks).as("buffer leaks reported during (or before) the run").isEmpty();
  }

  @Test
  void theSameSeedGivesTheSameFrames() {
    FrameMutator a = new FrameMutator(7);
    FrameMutator b = new FrameMutator(7);
    for (int i = 0; i < 1_000; i++) {
      assertThat(Arrays.equals(a.next(), b.next())).isTrue();
    }
  }

  /**
   * The order seeds reach the content decoder whole: the captured frame is a well-formed request of the
   * fuzzer's order method, and the server answers it, in V2 with CRC and in V1, with exactly the content the
   * generated codec wrote (every field read, and written back).
   */
  @Test
  void theCapturedOrderRequestIsAnsweredWithTheOrderItCarries() throws Exception {
    byte[] content = FuzzOrders.capturedContent();
    byte[] v2 = FuzzOrders.capturedRequest();
    assertThat(v2).isEqualTo(RawFrames.request(RawFrames.PROTOCOL_V2, (byte) 2, RawFrames.SWITCH_CRC,
        RawFrames.TYPE_REQUEST, 1, 3000, RawFrames.CODEC_PROTOBUF, FuzzOrders.ECHO_ORDER.wireName(), Map.of(),
        content));
    byte[] v1 = RawFrames.request(RawFrames.PROTOCOL_V1, (byte) 0, (byte) 0, RawFrames.TYPE_REQUEST, 2, 3000,
        RawFrames.CODEC_PROTOBUF, FuzzOrders.ECHO_ORDER.wireName(), Map.of(), content);
    try (BoltServer server = FrameFuzz.server()) {
      for (byte[] request : List.of(v2, v1)) {
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
          socket.setSoTimeout(10_000);
          OutputStream out = socket.getOutputStream();
          out.write(request);
          out.flush();
          InputStream in = socket.getInputStream();
          byte[] response = RawFrames.read(in);
          assertThat(response).isNotNull();
          assertThat(RawFrames.requestId(response)).isEqualTo(RawFrames.requestId(request));
          assertThat(RawFrames.status(response)).isEqualTo(ResponseStatus.SUCCESS.code());
          assertThat(responseContent(response)).isEqualTo(content);
        }
      }
    }
  }

  private static byte[] responseContent(byte[] frame) {
    int header = RawFrames.fixedHeaderLength(frame[0], false);
    ByteBuffer b = ByteBuffer.wrap(frame);
    int start = header + b.getShort(header - 8) + b.getShort(header - 6);
    return Arrays.copyOfRange(frame, start, start + b.getInt(header - 4));
  }
}
