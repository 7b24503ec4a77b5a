package com.example.sofa.peer;

import com.alipay.sofa.rpc.config.ProviderConfig;
import com.alipay.sofa.rpc.config.ServerConfig;
import com.alipay.sofa.rpc.context.RpcRuntimeContext;
import com.example.sofa.hessian.GreetService;
import com.example.sofa.proto.EchoService;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** One SOFARPC bolt server on 127.0.0.1 exporting EchoService (protobuf) and GreetService (hessian2). */
final class PeerProvider {

  private PeerProvider() {}

  /**
   * Serves 127.0.0.1:{@code port} (1..65535, checked by the command line) as provider {@code id}, registered
   * in {@code registry} with {@code weight} unless that is null, until the end of standard input or SIGTERM.
   */
  static void run(int port, String id, String registry, int weight) throws InterruptedException {

    ServerConfig server = new ServerConfig()
        .setProtocol(Sofa.PROTOCOL)
        .setHost("127.0.0.1")
        .setBoundHost("127.0.0.1")
        // what goes into the registry: SOFARPC replaces a loopback host with the machine's address otherwise
        .setVirtualHost("127.0.0.1")
        .setPort(port)
        .setDaemon(false);
    ProviderConfig<EchoService> echo = new ProviderConfig<EchoService>()
        .setApplication(Sofa.application())
        .setInterfaceId(EchoService.class.getName())
        .setRef(new EchoServiceImpl(id))
        .setServer(server)
        .setSerialization("protobuf")
        .setWeight(weight);
    ProviderConfig<GreetService> greet = new ProviderConfig<GreetService>()
        .setApplication(Sofa.application())
        .setInterfaceId(GreetService.class.getName())
        .setRef(new GreetServiceImpl(id))
        .setServer(server)
        .setSerialization("hessian2")
        .setWeight(weight);
    if (registry != null) {
      echo.setRegistry(Sofa.registry(registry));
      greet.setRegistry(Sofa.registry(registry));
    } else {
      echo.setRegister(false);
      greet.setRegister(false);
    }

    CountDownLatch stop = new CountDownLatch(1);
    CountDownLatch stopped = new CountDownLatch(1);
    Thread hook = new Thread(() -> {
      stop.countDown();
      try {
        stopped.await(20, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "sofa-peer-stop");
    Runtime.getRuntime().addShutdownHook(hook);
    Thread stdin = new Thread(() -> {
      drain(System.in);
      stop.countDown();
    }, "sofa-peer-stdin");
    stdin.setDaemon(true);

    try {
      echo.export();
      greet.export();
      PeerMain.OUT.println("READY " + port);
      PeerMain.OUT.flush();
      stdin.start();
      stop.await();
    } finally {
      for (ProviderConfig<?> provider : List.of(echo, greet)) {
        try {
          provider.unExport();
        } catch (RuntimeException e) {
          System.err.println("sofa-peer: unExport " + provider.getInterfaceId() + ": " + e);
        }
      }
      RpcRuntimeContext.destroy();
      stopped.countDown();
    }
  }

  /** Reads (and ignores) everything until the end of the stream. */
  static void drain(InputStream in) {
    byte[] buffer = new byte[256];
    try {
      while (in.read(buffer) >= 0) {
        // a line ("stop") or anything else: only the end of input stops the provider
      }
    } catch (IOException e) {
      // standard input went away: stop as at its end
    }
  }
}
