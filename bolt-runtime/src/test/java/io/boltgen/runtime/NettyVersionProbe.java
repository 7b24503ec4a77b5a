package io.boltgen.runtime;

import java.nio.charset.StandardCharsets;

/**
 * What {@link NettyVersionProcessTest} runs in a child JVM, as an application starts: a client, then a
 * server with {@link EchoService}, then one call. The client comes first so that nothing but the runtime's
 * own builders has run when the runtime first meets Netty. Prints {@code ECHOED <text>} on success; a
 * failure is left to the JVM (its stack trace on standard error, exit status 1), as in an application's
 * {@code main}.
 */
public final class NettyVersionProbe {

  private NettyVersionProbe() {}

  public static void main(String[] args) throws Exception {
    try (BoltClient client = BoltClient.builder().build();
        BoltServer server = BoltServer.builder().bind("127.0.0.1", 0).service(new EchoService().definition())
            .build().start()) {
      byte[] answer = client.channel("127.0.0.1:" + server.port())
          .invokeSync(EchoService.ECHO, "probe".getBytes(StandardCharsets.UTF_8), CallOptions.DEFAULT);
      System.out.println("ECHOED " + new String(answer, StandardCharsets.UTF_8));
    }
  }
}
