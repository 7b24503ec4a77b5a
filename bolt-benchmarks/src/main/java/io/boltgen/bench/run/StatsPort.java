package io.boltgen.bench.run;

import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A server JVM's side channel for what only it can measure: a loopback TCP port (announced in its
 * {@code READY} line as {@code stats=<port>}) where each line {@code alloc} is answered with the bytes the
 * server JVM has allocated so far ({@link ProcStat#allocatedBytes()}). Plain blocking sockets, one daemon thread
 * per connection (the client makes one), nothing on the benchmarked system's own connections.
 */
final class StatsPort implements Closeable {

  private final ServerSocket socket;

  private StatsPort(ServerSocket socket) {
    this.socket = socket;
  }

  /** Listens on a free port of {@code host} and answers until closed. */
  static StatsPort start(String host) throws IOException {
    ServerSocket socket = new ServerSocket();
    socket.bind(new InetSocketAddress(InetAddress.getByName(host), 0));
    StatsPort port = new StatsPort(socket);
    Thread acceptor = new Thread(port::accept, "stats-accept");
    acceptor.setDaemon(true);
    acceptor.start();
    return port;
  }

  int port() {
    return socket.getLocalPort();
  }

  private void accept() {
    while (!socket.isClosed()) {
      try {
        Socket s = socket.accept();
        Thread t = new Thread(() -> serve(s), "stats-serve");
        t.setDaemon(true);
        t.start();
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private static void serve(Socket s) {
    try (s; BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII))) {
      OutputStream out = s.getOutputStream();
      String line;
      while ((line = in.readLine()) != null) {
        String answer = line.trim().equals("alloc") ? Long.toString(ProcStat.allocatedBytes()) : "?";
        out.write((answer + "\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
      }
    } catch (IOException e) {
      // the client went away
    }
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }

  /** The client's end: asks a server's {@link StatsPort}. Not thread-safe. */
  static final class Client implements Closeable {
    private final Socket socket;
    private final BufferedReader in;

    Client(String host, int port) throws IOException {
      this.socket = new Socket(host, port);
      socket.setTcpNoDelay(true);
      socket.setSoTimeout(5_000);
      this.in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
    }

    /** The server JVM's allocated bytes so far, or -1 if it cannot tell or does not answer. */
    long allocatedBytes() {
      try {
        socket.getOutputStream().write("alloc\n".getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
        String line = in.readLine();
        return line == null || !line.matches("-?[0-9]+") ? -1 : Long.parseLong(line);
      } catch (IOException e) {
        return -1;
      }
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }
}
