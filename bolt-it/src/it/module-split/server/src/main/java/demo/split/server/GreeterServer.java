package demo.split.server;

import demo.split.api.GreeterBolt;
import io.boltgen.runtime.BoltServer;

/** Starts a server for {@link GreeterService}, bound through the code generated in the API jar. */
public final class GreeterServer {

  private GreeterServer() {}

  /** A started server on {@code host:port} (port 0: any free port, see {@link BoltServer#port()}). */
  public static BoltServer start(String host, int port) {
    return BoltServer.builder()
        .bind(host, port)
        .service(GreeterBolt.bind(new GreeterService()))
        .build()
        .start();
  }

  /** Serves on the port given as the only argument until the process is stopped. */
  public static void main(String[] args) {
    BoltServer server = start("0.0.0.0", Integer.parseInt(args[0]));
    System.out.println("READY " + server.port());
  }
}
