package io.boltgen.runtime.internal;

import static org.awaitility.Awaitility.await;

import io.boltgen.runtime.BoltChannel;
import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.BoltServer;
import io.boltgen.runtime.CallOptions;
import io.boltgen.runtime.EchoService;
import io.boltgen.runtime.ServiceDefinition;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.core.ConditionTimeoutException;

/**
 * A frame decoder fuzzer against a real server over real sockets: several threads each open connection
 * after connection, send 1 to 30 frames from a {@link FrameMutator}, half-close, and read whatever comes back
 * until the server closes. A connection the server neither answers nor closes within the stall timeout
 * counts as a stall. Meanwhile one ordinary client keeps calling the same server over one connection; a
 * failed call there counts as a probe failure (fuzzing must never close or stall other connections).
 */
final class FrameFuzz {

  /** What to run: {@code frames} in all, over {@code threads} threads, from {@code seed}. */
  record Settings(long seed, long frames, int threads, Duration stallTimeout, long probeEvery) {

    /**
     * {@code frames} frames from {@code seed} over {@code threads} threads; each thread makes a probe call
     * every 1,000 frames, or once at its end if it sends fewer.
     */
    static Settings of(long seed, long frames, int threads) {
      return new Settings(seed, frames, threads, Duration.ofSeconds(10),
          Math.max(1, Math.min(1_000, frames / threads)));
    }
  }

  /** What happened. */
  record Report(
      Settings settings,
      long frames,
      long connections,
      long bytesSent,
      long bytesReceived,
      long stalls,
      long probes,
      long probeFailures,
      Duration elapsed,
      int serverConnectionsAfter) {

    /** Frames sent per second. */
    double framesPerSecond() {
      return frames / Math.max(1e-9, elapsed.toNanos() / 1e9);
    }

    @Override
    public String toString() {
      return String.format(Locale.ROOT, "%,d frames over %,d connections in %.1f s (%,.0f frames/s), seed %d, %d"
          + " threads: %,d bytes sent, %,d received; %d stalls; %,d probe calls, %d failed; %d server connections"
          + " left", frames, connections, elapsed.toNanos() / 1e9, framesPerSecond(), settings.seed(),
          settings.threads(), bytesSent, bytesReceived, stalls, probes, probeFailures, serverConnectionsAfter);
    }
  }

  private FrameFuzz() {}

  /**
   * The fuzzed server's services: {@link EchoService}'s echo and sink (raw bytes), and the order service of
   * {@link FuzzOrders}, whose content is decoded as protobuf.
   */
  static BoltServer server() {
    ServiceDefinition echo = ServiceDefinition.builder("test.Echo", "1.0")
        .method(EchoService.ECHO, (request, call) -> call.respond(request))
        .method(EchoService.SINK, (request, call) -> {})
        .build();
    return BoltServer.builder()
        .bind("127.0.0.1", 0)
        .service(echo)
        .service(FuzzOrders.definition())
        .build()
        .start();
  }

  /** Runs the fuzzer against a server of its own; prints progress to {@code progress}. */
  static Report run(Settings settings, PrintStream progress) throws Exception {
    BoltServer server = server();
    BoltClient probeClient = BoltClient.builder().build();
    ExecutorService threads = Executors.newFixedThreadPool(settings.threads());
    try {
      BoltChannel probe = probeClient.channel("127.0.0.1:" + server.port());
      probe.invokeSync(EchoService.ECHO, new byte[] {1}, CallOptions.DEFAULT);
      AtomicLong frames = new AtomicLong();
      AtomicLong connections = new AtomicLong();
      AtomicLong sent = new AtomicLong();
      AtomicLong received = new AtomicLong();
      AtomicLong stalls = new AtomicLong();
      AtomicLong probes = new AtomicLong();
      AtomicLong probeFailures = new AtomicLong();
      long start = System.nanoTime();
      List<Future<?>> workers = new ArrayList<>();
      for (int t = 0; t < settings.threads(); t++) {
        FrameMutator mutator = new FrameMutator(settings.seed() * 31 + t);
        long share = settings.frames() / settings.threads() + (t < settings.frames() % settings.threads() ? 1 : 0);
        workers.add(threads.submit(() -> {
          long done = 0;
          long nextProbe = settings.probeEvery();
          ByteArrayOutputStream batch = new ByteArrayOutputStream();
          while (done < share) {
            batch.reset();
            int n = (int) Math.min(share - done, mutator.framesPerConnection());
            boolean contentOnly = mutator.contentOnlyConnection();
            for (int i = 0; i < n; i++) {
              batch.writeBytes(contentOnly ? mutator.nextWithBadContent() : mutator.next());
            }
            byte[] bytes = batch.toByteArray();
            long got = exchange(server.port(), bytes, settings.stallTimeout());
            if (got < 0) {
              stalls.incrementAndGet();
            } else {
              received.addAndGet(got);
            }
            done += n;
            frames.addAndGet(n);
            sent.addAndGet(bytes.length);
            long c = connections.incrementAndGet();
            if (done >= nextProbe) {
              nextProbe += settings.probeEvery();
              probes.incrementAndGet();
              try {
                byte[] answer = probe.invokeSync(EchoService.ECHO, new byte[] {(byte) done}, CallOptions.DEFAULT);
                if (answer.length != 1) {
                  probeFailures.incrementAndGet();
                }
              } catch (RuntimeException e) {
                probeFailures.incrementAndGet();
                progress.println("probe call failed: " + e);
              }
            }
            if (c % 20_000 == 0) {
              progress.printf(Locale.ROOT, "  %,d frames, %,d connections, %d stalls, %d probe failures%n",
                  frames.get(), c, stalls.get(), probeFailures.get());
            }
          }
          return null;
        }));
      }
      for (Future<?> worker : workers) {
        worker.get();
      }
      Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
      probeClient.close(); // its connection is the one that must stay: now every other one must be gone
      try {
        // the last closes are on their way through the IO threads
        await().atMost(Duration.ofSeconds(10)).until(() -> server.connections().isEmpty());
      } catch (ConditionTimeoutException e) {
        // counted below
      }
      int left = server.connections().size();
      return new Report(settings, frames.get(), connections.get(), sent.get(), received.get(), stalls.get(),
          probes.get(), probeFailures.get(), elapsed, left);
    } finally {
      threads.shutdownNow();
      probeClient.close();
      server.close();
    }
  }

  /**
   * Sends {@code bytes} on a new connection, half-closes it and reads until the server closes it; returns the
   * bytes read, or -1 if the server neither answered nor closed within {@code stallTimeout}.
   */
  private static long exchange(int port, byte[] bytes, Duration stallTimeout) throws IOException {
    try (Socket socket = new Socket("127.0.0.1", port)) {
      socket.setSoTimeout((int) stallTimeout.toMillis());
      try {
        socket.getOutputStream().write(bytes);
        socket.shutdownOutput();
      } catch (IOException e) {
        // the server closed first (a bad frame early on): read what it sent before
      }
      InputStream in = socket.getInputStream();
      byte[] sink = new byte[8192];
      long total = 0;
      try {
        for (int n; (n = in.read(sink)) >= 0; ) {
          total += n;
        }
      } catch (SocketTimeoutException e) {
        return -1;
      } catch (IOException e) {
        // reset by the server: closed all the same
      }
      return total;
    }
  }
}
