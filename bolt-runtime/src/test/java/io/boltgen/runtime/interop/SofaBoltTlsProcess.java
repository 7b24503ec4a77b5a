package io.boltgen.runtime.interop;

import com.alipay.remoting.BizContext;
import com.alipay.remoting.ConnectionEventType;
import com.alipay.remoting.rpc.RpcClient;
import com.alipay.remoting.rpc.RpcServer;
import com.alipay.remoting.rpc.protocol.SyncUserProcessor;
import io.boltgen.runtime.codec.Marshaller;
import io.netty.handler.ssl.SslHandler;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLPeerUnverifiedException;

/**
 * A SOFABolt 1.6.10 peer in a JVM of its own, for {@link SofaTlsInteropTest}: SOFABolt reads its
 * {@code bolt.server.ssl.*} / {@code bolt.client.ssl.*} system properties for every connection it accepts or
 * opens, so a test can only set them for the whole process, as an operator does ({@code -D...}).
 *
 * <ul>
 *   <li>{@code server}: a SOFABolt {@link RpcServer} on 127.0.0.1 and a free port; prints {@code READY <port>}
 *       and serves until killed, logging {@code ACCEPTED <remote>} and {@code CLOSED <remote>} (to stderr) for
 *       every connection it accepts, before any TLS handshake, and sees closed. Its one processor answers an {@link Echo} with {@code sofa:<text> peer=<subject
 *       of the client certificate, or none> calls=<calls it answered so far, this one included>}.
 *   <li>{@code client <port>...}: a SOFABolt {@link RpcClient} makes one sync call ({@link Echo} "hello", codec
 *       11) to 127.0.0.1 at each port in turn and prints {@code RESULT <port> ok <reply>} or {@code RESULT <port>
 *       failed <exception class>: <message>}, then exits.
 * </ul>
 *
 * <p>Request and reply content is carried raw ({@link SofaBolt#registerRaw}).
 */
final class SofaBoltTlsProcess {

  private SofaBoltTlsProcess() {}

  /** The request: its class name is the className a SOFABolt client writes, and a boltgen method's wire name. */
  static final class Echo extends RawContent {
    Echo(String text) {
      super(text);
    }
  }

  /** The reply's className, on both sides. */
  static final class Reply extends RawContent {
    Reply(String text) {
      super(text);
    }
  }

  public static void main(String[] args) throws Exception {
    SofaBolt.registerRaw(Echo.class.getName());
    SofaBolt.registerRaw(Reply.class.getName());
    switch (args[0]) {
      case "server" -> serve();
      case "client" -> {
        call(args);
        System.exit(0); // SOFABolt's client leaves non-daemon threads behind
      }
      default -> throw new IllegalArgumentException("server or client: " + args[0]);
    }
  }

  private static void serve() throws InterruptedException {
    AtomicInteger calls = new AtomicInteger();
    RpcServer server = new RpcServer("127.0.0.1", 0, true);
    server.registerUserProcessor(new SyncUserProcessor<RawContent>() {
      @Override
      public Object handleRequest(BizContext biz, RawContent request) {
        return new Reply("sofa:" + request.text() + " peer=" + clientSubject(biz)
            + " calls=" + calls.incrementAndGet());
      }

      @Override
      public String interest() {
        return Echo.class.getName();
      }
    });
    // SOFABolt fires CONNECT from its channel initializer, for every accepted socket, TLS or not
    server.addConnectionEventProcessor(ConnectionEventType.CONNECT, (remote, connection) -> log("ACCEPTED " + remote));
    server.addConnectionEventProcessor(ConnectionEventType.CLOSE, (remote, connection) -> log("CLOSED " + remote));
    server.startup();
    Runtime.getRuntime().addShutdownHook(new Thread(server::shutdown));
    System.out.println("READY " + server.port());
    System.out.flush();
    new CountDownLatch(1).await(); // until killed
  }

  private static void log(String line) {
    System.err.println(line);
    System.err.flush();
  }

  /** The subject of the certificate the client proved it holds, or {@code none}. */
  private static String clientSubject(BizContext biz) {
    SslHandler ssl = biz.getConnection().getChannel().pipeline().get(SslHandler.class);
    if (ssl == null) {
      return "none(plain)";
    }
    try {
      Certificate[] chain = ssl.engine().getSession().getPeerCertificates();
      return ((X509Certificate) chain[0]).getSubjectX500Principal().getName();
    } catch (SSLPeerUnverifiedException e) {
      return "none";
    }
  }

  private static void call(String[] args) {
    RpcClient client = new RpcClient();
    client.startup();
    try {
      for (int i = 1; i < args.length; i++) {
        String port = args[i];
        String line;
        try {
          Object reply = client.invokeSync("127.0.0.1:" + port, new Echo("hello"),
              SofaBolt.codec(Marshaller.PROTOBUF), SofaBolt.TIMEOUT_MS);
          line = "ok " + ((RawContent) reply).text();
        } catch (Exception e) {
          line = "failed " + e.getClass().getName() + ": " + String.valueOf(e.getMessage()).replace('\n', ' ');
        }
        System.out.println("RESULT " + port + " " + line);
        System.out.flush();
      }
    } finally {
      client.shutdown();
    }
  }
}
