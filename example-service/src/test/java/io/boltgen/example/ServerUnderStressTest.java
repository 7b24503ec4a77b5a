package io.boltgen.example;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.Connection;
import io.boltgen.runtime.ConnectionListener;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.testing.RawFrames;
import io.boltgen.testing.ReadyProcess;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The example server as a separate process on a bad day: frozen by SIGSTOP and resumed, and flooded with
 * more connections than it has file descriptors for.
 */
class ServerUnderStressTest {

  @Test
  void aServerFrozenAndResumedServesAgainWithinASecond() throws Exception {
    AtomicInteger closes = new AtomicInteger();
    try (ReadyProcess server = ServerProcess.start();
        BoltClient client = BoltClient.builder()
            .heartbeat(Duration.ofMillis(200), Duration.ofMillis(200), 2) // finds a frozen server in about a second
            .connectionListener(new ConnectionListener() {
              @Override
              public void onClose(Connection connection) {
                closes.incrementAndGet();
              }
            })
            .build()) {
      Inventory inventory = InventoryBolt.newClient(client.channel("127.0.0.1:" + server.port()));
      assertThat(inventory.get(new SkuId("apple")).sku()).isEqualTo(new SkuId("apple"));

      // another caller, connected before the freeze, asks for 100 slow reports (1.5 s each) while the server
      // is frozen and hangs up: stale work that waits in the server's socket buffer when it resumes
      ByteArrayOutputStream reports = new ByteArrayOutputStream();
      for (int id = 1; id <= 100; id++) {
        reports.writeBytes(frame(InventoryBolt.METHOD_REPORT, id, new InventoryBolt.ReportRequest(true)));
      }
      try (Socket impatientCaller = new Socket("127.0.0.1", server.port())) {
        server.signal("STOP");
        impatientCaller.getOutputStream().write(reports.toByteArray());
      }
      // calls time out meanwhile, and the heartbeat gives up on the connection
      await().atMost(Duration.ofSeconds(20)).until(() -> closes.get() >= 1);
      server.signal("CONT");
      long resumed = System.nanoTime();
      Inventory impatient = InventoryBolt.newClient(client.channel("127.0.0.1:" + server.port()))
          .withTimeout(Duration.ofMillis(300));
      await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10)).ignoreExceptions().untilAsserted(() ->
          assertThat(impatient.get(new SkuId("apple")).sku()).isEqualTo(new SkuId("apple")));
      long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - resumed);
      System.out.printf("measured: %d ms from SIGCONT to the first successful call%n", millis);
      assertThat(millis).as("from SIGCONT to the first successful call, ms").isLessThan(1_500);
      assertThat(inventory.get(new SkuId("pear")).sku()).isEqualTo(new SkuId("pear"));
    }
  }

  /** A {@code get(apple)} request frame with request id {@code id}. */
  private static byte[] getRequest(int id) {
    return frame(InventoryBolt.METHOD_GET, id, new InventoryBolt.GetRequest(new SkuId("apple")));
  }

  /** A V2 request frame (CRC on) of {@code method} with request id {@code id}. */
  private static <Q> byte[] frame(MethodDescriptor<Q, ?> method, int id, Q request) {
    ByteBuf content = Unpooled.buffer(method.requestMarshaller().encodedSize(request));
    try {
      method.requestMarshaller().write(request, content);
      return RawFrames.request(method.wireName(), id, ByteBufUtil.getBytes(content), 30_000);
    } finally {
      content.release();
    }
  }

  /** The status of the next frame on {@code in} (a V2 response), or -1 if the server closed first. */
  private static int readStatus(DataInputStream in) throws IOException {
    byte[] header = new byte[RawFrames.V2_RESPONSE_HEADER];
    try {
      in.readFully(header);
    } catch (java.io.EOFException e) {
      return -1;
    }
    ByteBuffer h = ByteBuffer.wrap(header);
    int rest = h.getShort(14) + h.getShort(16) + h.getInt(18) + ((header[11] & 1) != 0 ? 4 : 0);
    in.readFully(new byte[rest]);
    return h.getShort(12);
  }

  @Test
  void moreClientsThanFileDescriptorsAreEachServedOrRefusedAtOnceWithoutAStackTrace() throws Exception {
    int clients = 400;
    try (ReadyProcess server = ServerProcess.start(256)) { // a default limit below the 256 descriptors
      ExecutorService pool = Executors.newFixedThreadPool(32);
      List<Socket> sockets = new ArrayList<>();
      try {
        List<Future<Integer>> outcomes = new ArrayList<>();
        for (int i = 0; i < clients; i++) {
          int id = i + 1;
          outcomes.add(pool.submit(() -> {
            Socket socket = new Socket("127.0.0.1", server.port());
            synchronized (sockets) {
              sockets.add(socket); // served ones stay open: they hold the server's descriptors
            }
            socket.setSoTimeout(20_000);
            socket.getOutputStream().write(getRequest(id));
            return readStatus(new DataInputStream(socket.getInputStream()));
          }));
        }
        int served = 0;
        int refused = 0;
        for (Future<Integer> outcome : outcomes) {
          int status;
          try {
            status = outcome.get(60, TimeUnit.SECONDS); // no client hangs: each hears back
          } catch (java.util.concurrent.ExecutionException e) {
            throw new AssertionError("a client got no answer (" + e.getCause() + "); the server logged:\n"
                + server.log(), e);
          }
          if (status == ResponseStatus.SUCCESS.code()) {
            served++;
          } else {
            assertThat(status).as("a refused client is told the server is busy")
                .isEqualTo(ResponseStatus.SERVER_THREADPOOL_BUSY.code());
            refused++;
          }
        }
        System.out.printf("measured: %d clients against 256 file descriptors: %d served, %d refused busy%n",
            clients, served, refused);
        assertThat(served + refused).isEqualTo(clients);
        assertThat(served).isPositive();
        assertThat(refused).isPositive();
      } finally {
        pool.shutdownNow();
        for (Socket socket : sockets) {
          socket.close();
        }
      }
      // with the flood gone, the server serves as ever
      try (BoltClient client = BoltClient.builder().build()) {
        Inventory inventory = InventoryBolt.newClient(client.channel("127.0.0.1:" + server.port()));
        await().atMost(Duration.ofSeconds(10)).ignoreExceptions().untilAsserted(() ->
            assertThat(inventory.get(new SkuId("apple")).sku()).isEqualTo(new SkuId("apple")));
      }
      String log = server.log();
      assertThat(log).as("the server's log: no stack trace").doesNotContain("\tat ");
      assertThat(log.lines().filter(l -> l.contains("refused connection")).count()).isLessThanOrEqualTo(10);
      assertThat(log.lines().filter(l -> l.contains("could not accept")).count()).isLessThanOrEqualTo(10);
    }
  }
}
