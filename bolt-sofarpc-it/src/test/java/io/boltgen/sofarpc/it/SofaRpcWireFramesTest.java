package io.boltgen.sofarpc.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.BoltServer;
import io.boltgen.runtime.WireProtocol;
import io.boltgen.sofarpc.it.hessian.GreetService;
import io.boltgen.sofarpc.it.hessian.GreetServiceBolt;
import io.boltgen.sofarpc.it.hessian.GreetServiceImpl;
import io.boltgen.sofarpc.it.proto.EchoRequest;
import io.boltgen.sofarpc.it.proto.EchoService;
import io.boltgen.sofarpc.it.proto.EchoServiceBolt;
import io.boltgen.sofarpc.it.proto.EchoServiceImpl;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The frames a dialect client puts on the wire, seen by a relay between it and a boltgen server: Bolt V1, as
 * SOFARPC's consumers send them, unless a channel asks for another format; and a plain Bolt client's own format
 * on connections of its own.
 */
@Timeout(60)
class SofaRpcWireFramesTest {

  private BoltServer server;
  private BoltClient client;
  private Relay relay;

  @BeforeEach
  void start() throws IOException {
    server = BoltServer.builder().bind("127.0.0.1", 0)
        .service(GreetServiceBolt.bind(new GreetServiceImpl("bolt-1")))
        .service(EchoServiceBolt.bind(new EchoServiceImpl("bolt-1")))
        .build().start();
    client = BoltClient.builder().build(); // its own format: V2 with CRC, the runtime's default
    relay = new Relay(new InetSocketAddress("127.0.0.1", server.port()));
  }

  @AfterEach
  void stop() throws IOException {
    client.close();
    relay.close();
    server.close();
  }

  @Test
  void dialectCallsGoInV1Frames() throws IOException {
    GreetService greet = GreetServiceBolt.newClient(client, relay.target());
    assertThat(greet.join("a", 7)).isEqualTo("a:7");
    EchoService echo = EchoServiceBolt.newClient(client, relay.target());
    assertThat(echo.echo(new EchoRequest("hi", 2)).text()).isEqualTo("hihi");
    // one connection for both services (one format), whose every request is a V1 one: protocol code 1, then
    // type 1 (request), command code 1 (RPC request); codec 1 (Hessian2) and 11 (protobuf)
    assertThat(relay.connections()).hasSize(1);
    List<byte[]> requests = v1Requests(relay.sent(0));
    assertThat(requests).hasSize(2);
    assertThat(requests.get(0)[9]).isEqualTo((byte) 1);
    assertThat(requests.get(1)[9]).isEqualTo((byte) 11);
  }

  @Test
  void aChannelMayAskForV2() throws IOException {
    GreetService greet = GreetServiceBolt.newClient(client.channel(relay.target(), WireProtocol.V2_CRC));
    assertThat(greet.join("b", 8)).isEqualTo("b:8");
    byte[] sent = relay.sent(0);
    assertThat(sent[0]).as("protocol code").isEqualTo((byte) 2);
    assertThat(sent[1]).as("V2 version").isEqualTo((byte) 2);
  }

  @Test
  void aDialectServiceAndTheClientsOwnFormatUseConnectionsOfTheirOwn() throws IOException {
    GreetService v1 = GreetServiceBolt.newClient(client, relay.target());
    GreetService own = GreetServiceBolt.newClient(client.channel(relay.target()));
    assertThat(v1.join("c", 1)).isEqualTo("c:1");
    assertThat(own.join("d", 2)).isEqualTo("d:2");
    assertThat(relay.connections()).hasSize(2);
    assertThat(List.of(relay.sent(0)[0], relay.sent(1)[0])).containsExactlyInAnyOrder((byte) 1, (byte) 2);
    assertThat(client.connections(relay.address())).hasSize(2);
  }

  /** The V1 requests in {@code bytes}, each whole: a 22-byte header, className, header and content. */
  private static List<byte[]> v1Requests(byte[] bytes) {
    List<byte[]> frames = new ArrayList<>();
    int at = 0;
    while (at < bytes.length) {
      assertThat(bytes[at]).as("protocol code at %d", at).isEqualTo((byte) 1);
      assertThat(bytes[at + 1]).as("type at %d", at).isEqualTo((byte) 1);
      assertThat(bytes[at + 3]).as("command code at %d", at).isEqualTo((byte) 1);
      int classLength = u16(bytes, at + 14);
      int headerLength = u16(bytes, at + 16);
      int contentLength = u16(bytes, at + 18) << 16 | u16(bytes, at + 20);
      int end = at + 22 + classLength + headerLength + contentLength;
      byte[] frame = new byte[end - at];
      System.arraycopy(bytes, at, frame, 0, frame.length);
      frames.add(frame);
      at = end;
    }
    return frames;
  }

  private static int u16(byte[] b, int at) {
    return (b[at] & 0xff) << 8 | (b[at + 1] & 0xff);
  }

  /** A TCP relay to one upstream that keeps what each client connection sent. Its threads end with it. */
  private static final class Relay implements AutoCloseable {
    private final InetSocketAddress upstream;
    private final ServerSocket listener;
    private final List<ByteArrayOutputStream> sent = new ArrayList<>();
    private final List<Socket> sockets = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();

    Relay(InetSocketAddress upstream) throws IOException {
      this.upstream = upstream;
      this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
      start("relay-accept", this::accept);
    }

    String target() {
      return "127.0.0.1:" + listener.getLocalPort();
    }

    InetSocketAddress address() {
      return new InetSocketAddress("127.0.0.1", listener.getLocalPort());
    }

    synchronized List<ByteArrayOutputStream> connections() {
      return List.copyOf(sent);
    }

    /** What the {@code i}th connection sent so far. */
    synchronized byte[] sent(int i) {
      ByteArrayOutputStream out = sent.get(i);
      synchronized (out) {
        return out.toByteArray();
      }
    }

    private void accept() {
      try {
        while (true) {
          Socket downstream = listener.accept();
          Socket up = new Socket(upstream.getAddress(), upstream.getPort());
          ByteArrayOutputStream copy = new ByteArrayOutputStream();
          synchronized (this) {
            sockets.add(downstream);
            sockets.add(up);
            sent.add(copy);
          }
          start("relay-up", () -> pump(downstream, up, copy));
          start("relay-down", () -> pump(up, downstream, null));
        }
      } catch (IOException closed) {
        // the relay closed
      }
    }

    /** Copies {@code from} to {@code to} (and into {@code copy}) until either closes. */
    private static void pump(Socket from, Socket to, ByteArrayOutputStream copy) {
      byte[] buffer = new byte[8192];
      try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
        for (int n; (n = in.read(buffer)) > 0; ) {
          if (copy != null) {
            synchronized (copy) {
              copy.write(buffer, 0, n);
            }
          }
          out.write(buffer, 0, n);
          out.flush();
        }
      } catch (IOException closed) {
        // either side closed
      }
    }

    private synchronized void start(String name, Runnable task) {
      Thread t = new Thread(task, name);
      t.setDaemon(true);
      threads.add(t);
      t.start();
    }

    @Override
    public void close() throws IOException {
      listener.close();
      synchronized (this) {
        for (Socket s : sockets) {
          s.close();
        }
      }
      for (Thread t : List.copyOf(threads)) {
        try {
          t.join(10_000);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }
}
