package io.boltgen.runtime;

import static io.boltgen.runtime.EchoService.ECHO;
import static io.boltgen.runtime.EchoService.SLOW;
import static io.boltgen.runtime.EchoService.bytes;
import static io.boltgen.runtime.EchoService.string;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.boltgen.runtime.internal.CaptureBytes;
import io.boltgen.testing.Closer;
import io.boltgen.testing.RawFrames;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Heartbeats, idle close, the connection pool, connection events, duplex calls and shutdown. */
class ConnectionLifecycleTest {

  private final Closer closer = new Closer();

  @AfterEach
  void stop() throws Exception {
    closer.close();
  }

  /** A raw peer that accepts one connection and reads frames, optionally acking heartbeats. */
  private static final class RawPeer implements AutoCloseable {
    final ServerSocket listener;
    final AtomicInteger heartbeats = new AtomicInteger();
    final CountDownLatch eof = new CountDownLatch(1);
    final ExecutorService thread = Executors.newSingleThreadExecutor();
    volatile Socket socket;

    RawPeer(boolean answerHeartbeats) throws Exception {
      listener = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"));
      thread.execute(() -> {
        try (Socket s = listener.accept()) {
          socket = s;
          InputStream in = s.getInputStream();
          OutputStream out = s.getOutputStream();
          for (byte[] frame; (frame = RawFrames.read(in)) != null; ) {
            if (RawFrames.cmdCode(frame) == 0 && RawFrames.type(frame) == 1) {
              heartbeats.incrementAndGet();
              if (answerHeartbeats) {
                out.write(ack(frame));
                out.flush();
              }
            }
          }
        } catch (Exception e) {
          // closed
        } finally {
          eof.countDown();
        }
      });
    }

    InetSocketAddress address() {
      return new InetSocketAddress("127.0.0.1", listener.getLocalPort());
    }

    @Override
    public void close() throws java.io.IOException {
      listener.close();
      Socket s = socket;
      if (s != null) {
        s.close();
      }
      thread.shutdownNow();
    }
  }

  /** The V1 or V2 ack of a heartbeat frame. */
  private static byte[] ack(byte[] heartbeat) {
    int id = RawFrames.requestId(heartbeat);
    if (heartbeat[0] == 1) {
      return ByteBuffer.allocate(20).put((byte) 1).put((byte) 0).putShort((short) 0).put((byte) 1).putInt(id)
          .put((byte) 1).putShort((short) 0).putShort((short) 0).putShort((short) 0).putInt(0).array();
    }
    return ByteBuffer.allocate(22).put((byte) 2).put(heartbeat[1]).put((byte) 0).putShort((short) 0).put((byte) 1)
        .putInt(id).put((byte) 1).put((byte) 0).putShort((short) 0).putShort((short) 0).putShort((short) 0).putInt(0)
        .array();
  }

  @Test
  void answeredHeartbeatsKeepAnIdleConnectionOpen() throws Exception {
    RawPeer peer = closer.track(new RawPeer(true));
    BoltClient client = closer.track(BoltClient.builder()
        .heartbeat(Duration.ofMillis(100), Duration.ofMillis(500), 3).build());
    client.connect(peer.address()).get(10, TimeUnit.SECONDS);
    Connection connection = client.connections(peer.address()).get(0);
    await().atMost(Duration.ofSeconds(20)).until(() -> peer.heartbeats.get() >= 3); // repeated rounds: VirtualTimeTest
    assertThat(connection.isActive()).isTrue();
    assertThat(client.connections(peer.address())).containsExactly(connection);
  }

  @Test
  void threeUnansweredHeartbeatsCloseTheConnection() throws Exception {
    RawPeer peer = closer.track(new RawPeer(false));
    CountDownLatch closed = new CountDownLatch(1);
    BoltClient client = closer.track(BoltClient.builder()
        .heartbeat(Duration.ofMillis(100), Duration.ofMillis(100), 3)
        .reconnect(false, Duration.ofMillis(100), Duration.ofMillis(100))
        .connectionListener(new ConnectionListener() {
          @Override
          public void onClose(Connection connection) {
            closed.countDown();
          }
        })
        .build());
    client.connect(peer.address()).get(10, TimeUnit.SECONDS);
    assertThat(closed.await(20, TimeUnit.SECONDS)).isTrue();
    assertThat(peer.eof.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(peer.heartbeats.get()).isEqualTo(3);
  }

  @Test
  void ourServerAcksAHeartbeatInTheFormatItArrivedIn() throws Exception {
    BoltServer server = closer.track(BoltServer.builder().bind("127.0.0.1", 0).build().start());
    try (Socket socket = new Socket("127.0.0.1", server.port())) {
      socket.setSoTimeout(10_000);
      socket.getOutputStream().write(CaptureBytes.v1Heartbeat());
      byte[] ack = RawFrames.read(socket.getInputStream());
      assertThat(ack).hasSize(20);
      assertThat(ack[0]).isEqualTo((byte) 1);
      assertThat(RawFrames.type(ack)).isZero();
      assertThat(RawFrames.cmdCode(ack)).isZero();
      assertThat(RawFrames.requestId(ack)).isEqualTo(3);
      assertThat(ByteBuffer.wrap(ack).getShort(10)).as("status").isZero();
    }
  }

  @Test
  void theServerClosesIdleConnections() throws Exception {
    BoltServer server = closer.track(BoltServer.builder().bind("127.0.0.1", 0).idleTimeout(Duration.ofMillis(300)).build().start());
    CountDownLatch closed = new CountDownLatch(1);
    BoltClient client = closer.track(BoltClient.builder()
        .heartbeat(Duration.ZERO, Duration.ofSeconds(1), 3)
        .reconnect(false, Duration.ofMillis(100), Duration.ofMillis(100))
        .connectionListener(new ConnectionListener() {
          @Override
          public void onClose(Connection connection) {
            closed.countDown();
          }
        })
        .build());
    client.connect(server.localAddress()).get(10, TimeUnit.SECONDS);
    assertThat(closed.await(20, TimeUnit.SECONDS)).isTrue();
    await().atMost(Duration.ofSeconds(10)).until(() -> server.connections().isEmpty());
  }

  @Test
  void concurrentFirstCallsMakeExactlyTheConfiguredNumberOfConnections() throws Exception {
    EchoService echo = new EchoService();
    AtomicInteger accepted = new AtomicInteger();
    BoltServer server = closer.track(BoltServer.builder().bind("127.0.0.1", 0).service(echo.definition())
        .connectionListener(new ConnectionListener() {
          @Override
          public void onConnect(Connection connection) {
            accepted.incrementAndGet();
          }
        }).build().start());
    BoltClient client = closer.track(BoltClient.builder().connectionsPerAddress(4).build());
    BoltChannel channel = client.channel(server.localAddress());
    ExecutorService callers = Executors.newFixedThreadPool(32);
    closer.track(callers::shutdownNow);
    CountDownLatch go = new CountDownLatch(1);
    List<Future<String>> results = new ArrayList<>();
    for (int i = 0; i < 64; i++) {
      String payload = "call-" + i;
      results.add(callers.submit(() -> {
        go.await();
        return string(channel.invokeSync(ECHO, bytes(payload), CallOptions.DEFAULT));
      }));
    }
    go.countDown();
    for (int i = 0; i < results.size(); i++) {
      assertThat(results.get(i).get(30, TimeUnit.SECONDS)).isEqualTo("call-" + i);
    }
    await().atMost(Duration.ofSeconds(10)).until(() -> client.connections(server.localAddress()).size() == 4);
    await().atMost(Duration.ofSeconds(10)).until(() -> accepted.get() >= 4);
    assertThat(accepted.get()).isEqualTo(4);
    assertThat(server.connections()).hasSize(4);
  }

  @Test
  void connectionEventsReachListenersOnBothSides() throws Exception {
    ConcurrentLinkedQueue<String> events = new ConcurrentLinkedQueue<>();
    EchoService echo = new EchoService();
    BoltServer server = closer.track(BoltServer.builder().bind("127.0.0.1", 0).service(echo.definition())
        .connectionListener(new ConnectionListener() {
          @Override
          public void onConnect(Connection connection) {
            events.add("server connect");
          }

          @Override
          public void onClose(Connection connection) {
            events.add("server close");
          }
        }).build().start());
    CountDownLatch failed = new CountDownLatch(1);
    BoltClient client = BoltClient.builder().connectionListener(new ConnectionListener() {
      @Override
      public void onConnect(Connection connection) {
        events.add("client connect " + ((InetSocketAddress) connection.remoteAddress()).getPort());
      }

      @Override
      public void onClose(Connection connection) {
        events.add("client close");
      }

      @Override
      public void onConnectFailed(java.net.SocketAddress address, Throwable cause) {
        failed.countDown();
      }
    }).reconnect(false, Duration.ofMillis(100), Duration.ofMillis(100)).build();
    try {
      assertThat(string(client.channel(server.localAddress()).invokeSync(ECHO, bytes("x"), CallOptions.DEFAULT)))
          .isEqualTo("x");
      int deadPort;
      try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
        deadPort = probe.getLocalPort();
      }
      client.connect(new InetSocketAddress("127.0.0.1", deadPort)).handle((v, e) -> null).get(10, TimeUnit.SECONDS);
      assertThat(failed.await(10, TimeUnit.SECONDS)).isTrue();
    } finally {
      client.close();
    }
    await().atMost(Duration.ofSeconds(10)).until(() -> events.size() == 4);
    assertThat(events).containsExactlyInAnyOrder("server connect", "server close",
        "client connect " + server.port(), "client close");
  }

  @Test
  void theServerCallsTheClientBackOverTheConnectionTheRequestCameOn() throws Exception {
    MethodDescriptor<byte[], byte[]> whoAreYou = MethodDescriptor.newBuilder(EchoService.RAW, EchoService.RAW)
        .serviceName("test.ClientSide").methodName("whoAreYou").build();
    MethodDescriptor<byte[], byte[]> ping = MethodDescriptor.newBuilder(EchoService.RAW, EchoService.RAW)
        .serviceName("test.ServerSide").methodName("ping").build();
    BoltServer server = closer.track(BoltServer.builder().bind("127.0.0.1", 0)
        .service(ServiceDefinition.builder("test.ServerSide", "1.0")
            .method(ping, (request, call) -> {
              BoltChannel back = ServerContext.current().connection().channel();
              byte[] answer = back.invokeSync(whoAreYou, request, CallOptions.DEFAULT);
              call.respond(bytes("client said " + string(answer)));
            }).build())
        .build().start());
    for (WireProtocol protocol : WireProtocol.values()) {
      BoltClient client = closer.track(BoltClient.builder().protocol(protocol)
          .service(ServiceDefinition.builder("test.ClientSide", "1.0")
              .method(whoAreYou, (request, call) -> call.respond(bytes("I am a " + protocol + " client, asked "
                  + string(request)))).build())
          .build());
      byte[] reply = client.channel(server.localAddress()).invokeSync(ping, bytes("hi"), CallOptions.DEFAULT);
      assertThat(string(reply)).isEqualTo("client said I am a " + protocol + " client, asked hi");
    }
  }

  @Test
  void closeLetsCallsInFlightFinishThenStopsEveryThread() throws Exception {
    EchoService echo = new EchoService();
    echo.release = new CountDownLatch(1);
    BoltServer server = BoltServer.builder().bind("127.0.0.1", 0).service(echo.definition()).build().start();
    BoltClient client = BoltClient.builder().build();
    BoltChannel channel = client.channel(server.localAddress());
    List<CompletableFuture<byte[]>> calls = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      calls.add(channel.invokeFuture(SLOW, bytes("in flight " + i), CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(30))));
    }
    await().atMost(Duration.ofSeconds(10)).until(() -> echo.slowStarted.get() == 20);
    CompletableFuture<Void> closing = CompletableFuture.runAsync(client::close);
    assertThat(closing).isNotDone(); // it waits for the calls in flight
    echo.release.countDown();
    closing.get(20, TimeUnit.SECONDS);
    for (int i = 0; i < calls.size(); i++) {
      assertThat(string(calls.get(i).getNow(null))).isEqualTo("in flight " + i);
    }
    server.close();
    await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(boltgenThreads()).isEmpty());
  }

  @Test
  void closeFailsWhatCannotFinishWithinItsTimeout() throws Exception {
    EchoService echo = new EchoService();
    echo.release = new CountDownLatch(1);
    BoltServer server = closer.track(BoltServer.builder().bind("127.0.0.1", 0).service(echo.definition()).build().start());
    BoltClient client = BoltClient.builder().shutdownTimeout(Duration.ofMillis(300)).build();
    CompletableFuture<byte[]> stuck = client.channel(server.localAddress())
        .invokeFuture(SLOW, bytes("stuck"), CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(60)));
    await().atMost(Duration.ofSeconds(10)).until(() -> echo.slowStarted.get() == 1);
    client.close();
    assertThat(stuck).isCompletedExceptionally();
    assertThat(stuck.handle((v, e) -> ((BoltException) e).status()).get()).isEqualTo(ResponseStatus.CONNECTION_CLOSED);
    echo.release.countDown();
  }

  private static List<String> boltgenThreads() {
    List<String> names = new ArrayList<>();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.isAlive() && t.getName().startsWith("boltgen-")) {
        names.add(t.getName());
      }
    }
    return names;
  }
}
