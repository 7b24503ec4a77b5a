package io.boltgen.bench.fuzz;

import io.boltgen.bench.codec.model.OrderServiceBolt;
import io.boltgen.bench.service.EchoService;
import io.boltgen.bench.service.EchoServiceBolt;
import io.boltgen.bench.service.EchoServiceImpl;
import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.BoltServer;
import io.boltgen.testing.LeakRecorder;
import io.netty.util.ResourceLeakDetector;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A decoder fuzzer against a real boltgen server over real sockets: several threads each open connection
 * after connection, send 1 to 30 frames from a {@link FrameMutator}, half-close, and read whatever comes back
 * until the server closes. A connection the server neither answers nor closes within the stall timeout
 * counts as a stall. Meanwhile one ordinary client keeps calling the same server over one connection; a
 * failed call there counts as a probe failure (fuzzing must never close or stall other connections).
 */
public final class FrameFuzz {

  /** What to run: {@code frames} in all, over {@code threads} threads, from {@code seed}. */
  public record Settings(long seed, long frames, int threads, Duration stallTimeout, long probeEvery) {

    /** The settings of the test suite's run. */
    public static Settings of(long seed, long frames) {
      return new Settings(seed, frames, 4, Duration.ofSeconds(10), 1_000);
    }
  }

  /** What happened. */
  public record Report(
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
    public double framesPerSecond() {
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

  /** Runs the fuzzer against a server of its own; prints progress to {@code progress} (may be null). */
  public static Report run(Settings settings, PrintStream progress) throws Exception {
    BoltServer server = BoltServer.builder()
        .bind("127.0.0.1", 0)
        .service(EchoServiceBolt.bind(new EchoServiceImpl()))
        .service(OrderServiceBolt.bind(order -> order))
        .build()
        .start();
    BoltClient probeClient = BoltClient.builder().build();
    ExecutorService threads = Executors.newFixedThreadPool(settings.threads());
    try {
      EchoService probe = EchoServiceBolt.newClient(probeClient.channel("127.0.0.1:" + server.port()));
      probe.echo(new byte[] {1});
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
                byte[] answer = probe.echo(new byte[] {(byte) done});
                if (answer.length != 1) {
                  probeFailures.incrementAndGet();
                }
              } catch (RuntimeException e) {
                probeFailures.incrementAndGet();
                if (progress != null) {
                  progress.println("probe call failed: " + e);
                }
              }
            }
            if (progress != null && c % 20_000 == 0) {
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
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (!server.connections().isEmpty() && System.nanoTime() < deadline) {
        TimeUnit.MILLISECONDS.sleep(10); // the last closes are on their way through the IO threads
      }
      int left = server.connections().size();
      server.close();
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

  /**
   * The {@code fuzz} command: {@code frames} frames from {@code seed} over {@code threads} threads, with
   * Netty's leak detector at paranoid (every buffer tracked) and every leak it reports counted. Call it
   * before anything touches a Netty buffer: the detector is installed first.
   */
  public static int main(long seed, long frames, int threads, PrintStream out) throws Exception {
    ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
    LeakRecorder.install();
    Settings settings = new Settings(seed, frames, threads, Duration.ofSeconds(10), 1_000);
    out.printf(Locale.ROOT, "fuzzing a boltgen server with %,d frames (seed %d, %d threads, leak detection %s)%n",
        frames, seed, threads, ResourceLeakDetector.getLevel());
    Report report = run(settings, out);
    out.println(report);
    int leaks = LeakRecorder.collect().size();
    out.println(leaks + " buffer leak(s) reported");
    boolean ok = report.stalls() == 0 && report.probeFailures() == 0 && report.serverConnectionsAfter() == 0
        && leaks == 0;
    out.println(ok ? "OK" : "FAILED: " + Arrays.asList(report.stalls() + " stalls", report.probeFailures()
        + " probe failures", report.serverConnectionsAfter() + " connections left", leaks + " leaks"));
    return ok ? 0 : 1;
  }
}
