package io.boltgen.runtime.internal;

import static io.boltgen.runtime.EchoService.AMPLIFY;
import static io.boltgen.runtime.EchoService.ECHO;
import static io.boltgen.runtime.EchoService.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.boltgen.runtime.BoltChannel;
import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.BoltServer;
import io.boltgen.runtime.CallOptions;
import io.boltgen.runtime.Connection;
import io.boltgen.runtime.EchoService;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.testing.Closer;
import io.boltgen.testing.PeakSampler;
import io.boltgen.testing.RawFrames;
import io.netty.buffer.ByteBufAllocatorMetricProvider;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Back-pressure end to end: a peer that does not read costs bounded memory and loses nothing; large calls
 * under concurrency wait for their connection instead of being refused; only a call beyond the budget of
 * queued bytes (or past its own deadline) fails, saying why.
 */
class BackPressureTest {

  private final Closer closer = new Closer();

  @AfterEach
  void stop() throws Exception {
    closer.close();
  }

  /**
   * The direct memory of the allocator the runtime uses (pooled, unless the system property
   * {@code io.netty.allocator.type} chooses another): the chunks it holds (4 MiB each), in use or kept for later.
   */
  private static long directMemory() {
    return ((ByteBufAllocatorMetricProvider) Endpoint.ALLOCATOR).metric().usedDirectMemory();
  }

  @Test
  void aClientThatNeverReadsCostsTheServerBoundedMemoryAndLosesNoAnswer() throws Exception {
    EchoService echo = new EchoService();
    BoltServer server = closer.track(BoltServer.builder().bind("127.0.0.1", 0).service(echo.definition()).build().start());
    int requests = 20_000;
    int answerBytes = 12 * 1024; // 20,000 answers of 12 KiB: 240 MiB if the server buffered them all
    long before = directMemory();
    PeakSampler peak = closer.track(PeakSampler.start(BackPressureTest::directMemory));
    // the bytes the server holds for this client: encoded and waiting, or in the channel's buffer
    PeakSampler outboundPeak = closer.track(PeakSampler.start(() -> server.connections().stream()
        .mapToLong(c -> ((BoltConnection) c).outboundBytes()).max().orElse(0)));

    try (Socket socket = new Socket("127.0.0.1", server.port())) {
      ExecutorService writer = Executors.newSingleThreadExecutor();
      closer.track(writer::shutdownNow);
      // 1 KiB requests (amplify reads the first 4 bytes): 20 MiB in all, more than the kernel's socket
      // buffers on both ends can hold, so the writer must block once the server stops reading
      byte[] request = ByteBuffer.allocate(1024).putInt(answerBytes).array();
      Future<?> written = writer.submit(() -> {
        OutputStream out = new BufferedOutputStream(socket.getOutputStream(), 64 * 1024);
        for (int id = 1; id <= requests; id++) {
          out.write(RawFrames.request(AMPLIFY.wireName(), id, request, 60_000));
        }
        out.flush();
        return null;
      });
      // the client reads nothing: the server must stop reading it instead of buffering its answers
      await().atMost(Duration.ofSeconds(30)).until(() -> server.connections().size() == 1
          && ((BoltConnection) server.connections().get(0)).isReadPaused());
      BoltConnection connection = (BoltConnection) server.connections().get(0);
      assertThat(written).isNotDone(); // the rest of the requests wait in the kernel's buffers

      // now read everything: every request gets its answer, once
      InputStream in = new BufferedInputStream(socket.getInputStream(), 256 * 1024);
      BitSet answered = new BitSet(requests + 1);
      for (int i = 0; i < requests; i++) {
        byte[] frame = RawFrames.read(in);
        assertThat(frame).as("answer %d of %d", i + 1, requests).isNotNull();
        assertThat(RawFrames.status(frame)).isZero();
        int id = RawFrames.requestId(frame);
        assertThat(answered.get(id)).as("request id %d answered twice", id).isFalse();
        answered.set(id);
      }
      written.get(30, TimeUnit.SECONDS);
      assertThat(answered.cardinality()).isEqualTo(requests);
      assertThat(connection.isActive()).isTrue();
    }
    long growth = peak.peak() - before;
    System.out.printf("measured: while %,d answers of %,d bytes waited for a client that did not read, the server"
        + " held at most %,d outbound bytes for it, and the pool's direct memory grew by %,d bytes (4 MiB chunks)%n",
        requests, answerBytes, outboundPeak.peak(), growth);
    // the bound: the 64 KiB high water mark plus one answer
    assertThat(outboundPeak.peak()).as("outbound bytes held for the client").isLessThan(64 * 1024 + 2 * answerBytes);
    assertThat(growth).as("the pool's direct memory growth, bytes").isLessThan(32L << 20);
  }

  @Test
  void thirtyTwoThreadsSending64KiBAnd1MiBArgumentsCompleteEveryCall() throws Exception {
    EchoService echo = new EchoService();
    BoltServer server = closer.track(BoltServer.builder().bind("127.0.0.1", 0).service(echo.definition()).build().start());
    BoltClient client = closer.track(BoltClient.builder().build());
    BoltChannel channel = client.channel("127.0.0.1:" + server.port());
    ExecutorService callers = Executors.newFixedThreadPool(32);
    closer.track(callers::shutdownNow);
    CallOptions patient = CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(60));
    for (int size : new int[] {64 * 1024, 1024 * 1024}) {
      int callsPerThread = size > 64 * 1024 ? 4 : 40;
      ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
      List<Future<?>> threads = new ArrayList<>();
      for (int t = 0; t < 32; t++) {
        byte[] argument = new byte[size];
        argument[0] = (byte) t;
        threads.add(callers.submit(() -> {
          for (int i = 0; i < callsPerThread; i++) {
            try {
              byte[] answer = channel.invokeSync(ECHO, argument, patient);
              if (answer.length != size || answer[0] != argument[0]) {
                failures.add(new AssertionError("wrong answer of " + answer.length + " bytes"));
              }
            } catch (RuntimeException e) {
              failures.add(e);
            }
          }
        }));
      }
      for (Future<?> thread : threads) {
        thread.get(120, TimeUnit.SECONDS);
      }
      assertThat(failures).as("failed calls with %d-byte arguments", size).isEmpty();
    }

    // and 256 asynchronous calls in flight at once
    List<CompletableFuture<byte[]>> inFlight = new ArrayList<>();
    byte[] argument = new byte[64 * 1024];
    for (int i = 0; i < 256; i++) {
      inFlight.add(channel.invokeFuture(ECHO, argument, patient));
    }
    CompletableFuture.allOf(inFlight.toArray(new CompletableFuture<?>[0])).get(60, TimeUnit.SECONDS);
  }

  @Test
  void callsWaitForADeafPeerUpToTheQueueBudgetAndOnlyTheCallBeyondItFails() throws Exception {
    try (ServerSocket deaf = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      long budget = 1024 * 1024;
      BoltClient client = closer.track(BoltClient.builder().writeBufferWaterMark(1024, 8 * 1024).maxQueuedBytes(budget)
          .heartbeat(Duration.ZERO, Duration.ofSeconds(1), 1).build());
      InetSocketAddress address = new InetSocketAddress("127.0.0.1", deaf.getLocalPort());
      BoltChannel channel = client.channel(address);
      client.connect(address).get(10, TimeUnit.SECONDS);
      closer.track(deaf.accept()); // never read from: the kernel's buffers fill up, then the connection's queue
      byte[] big = new byte[64 * 1024];
      CallOptions patient = CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(60));
      List<CompletableFuture<byte[]>> waiting = new ArrayList<>();
      BoltException refused = null;
      for (int i = 0; i < 10_000 && refused == null; i++) {
        CompletableFuture<byte[]> call = channel.invokeFuture(ECHO, big, patient);
        if (call.isCompletedExceptionally()) {
          refused = (BoltException) call.handle((v, e) -> e).join();
        } else {
          waiting.add(call);
        }
      }
      assertThat(refused).as("a call beyond the budget fails at once").isNotNull();
      assertThat(refused.status()).isEqualTo(ResponseStatus.CLIENT_SEND_ERROR);
      assertThat(refused.getMessage()).contains("maxQueuedBytes").contains(Long.toString(budget));
      assertThat(waiting).as("calls within the budget wait").isNotEmpty().noneMatch(CompletableFuture::isDone);
      Connection connection = client.connections(address).get(0);
      assertThat(connection.isActive()).isTrue();

      // calls that complete while they wait (cancelled here; timed out in real life) give their room back, and a
      // call that waits past its own deadline fails with TIMEOUT
      for (CompletableFuture<byte[]> call : waiting) {
        call.cancel(false);
      }
      await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
        CompletableFuture<byte[]> late = channel.invokeFuture(ECHO, bytes("late"), CallOptions.DEFAULT.withTimeoutMillis(100));
        assertThat(late).failsWithin(Duration.ofSeconds(10)).withThrowableOfType(java.util.concurrent.ExecutionException.class)
            .havingCause().isInstanceOfSatisfying(BoltException.class,
                e -> assertThat(e.status()).isEqualTo(ResponseStatus.TIMEOUT));
      });
      assertThat(connection.isActive()).isTrue();
    }
  }
}
