package io.boltgen.runtime.interop;

import static io.boltgen.runtime.interop.SofaBolt.TIMEOUT_MS;
import static org.assertj.core.api.Assertions.assertThat;

import com.alipay.remoting.BizContext;
import com.alipay.remoting.InvokeContext;
import com.alipay.remoting.rpc.RpcClient;
import com.alipay.remoting.rpc.RpcServer;
import com.alipay.remoting.rpc.protocol.SyncUserProcessor;
import io.boltgen.runtime.BoltChannel;
import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.BoltServer;
import io.boltgen.runtime.CallOptions;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.MethodType;
import io.boltgen.runtime.ServerContext;
import io.boltgen.runtime.ServiceDefinition;
import io.boltgen.runtime.WireProtocol;
import io.boltgen.runtime.codec.Marshaller;
import io.boltgen.runtime.codec.RawBytesMarshaller;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Duplex calls between boltgen and a real SOFABolt 1.6.10, in each frame format: our server calling back
 * a SOFABolt client over the connection the client's request came on, and a SOFABolt server calling back
 * our client over the connection our request came on. Each callee answers through its own processors.
 */
class DuplexInteropTest {

  // ---------------------------------------------------------------- classes on the SOFABolt side

  /** A SOFABolt client's request to our server that makes our handler call the client back. */
  static final class Trigger extends RawContent {
    Trigger(String text) {
      super(text);
    }
  }

  /** A SOFABolt server's request to our client (duplex). */
  static final class ServerQuestion extends RawContent {
    ServerQuestion(String text) {
      super(text);
    }
  }

  /** A SOFABolt server's oneway to our client (duplex). */
  static final class ServerNotice extends RawContent {
    ServerNotice(String text) {
      super(text);
    }
  }

  /** What SOFABolt handlers (client or server) return. */
  static final class SofaAnswer extends RawContent {
    SofaAnswer(String text) {
      super(text);
    }
  }

  /** The className of our responses. */
  static final class BoltAnswer extends RawContent {
    BoltAnswer(String text) {
      super(text);
    }
  }

  // ---------------------------------------------------------------- our methods

  private static final Marshaller<byte[]> RAW = RawBytesMarshaller.withCodecId(Marshaller.PROTOBUF);

  /** Served by our server: a SOFABolt client calls it. */
  static final MethodDescriptor<byte[], byte[]> TRIGGER = method(Trigger.class.getName(), 1, MethodType.REQUEST_RESPONSE);
  /** Served by the SOFABolt client: our server calls it back. */
  static final MethodDescriptor<byte[], byte[]> ASK_CLIENT = method("interop.duplex.AskClient", 2, MethodType.REQUEST_RESPONSE);
  /** Served by the SOFABolt client: our server notifies it (oneway). */
  static final MethodDescriptor<byte[], byte[]> NOTIFY_CLIENT = method("interop.duplex.NotifyClient", 3, MethodType.ONEWAY);
  /** Served by the SOFABolt server: our client calls it. */
  static final MethodDescriptor<byte[], byte[]> ASK_SERVER = method("interop.duplex.AskServer", 4, MethodType.REQUEST_RESPONSE);
  /** Served by our client: the SOFABolt server calls it back. */
  static final MethodDescriptor<byte[], byte[]> SERVER_QUESTION =
      method(ServerQuestion.class.getName(), 5, MethodType.REQUEST_RESPONSE);
  /** Served by our client: the SOFABolt server notifies it (oneway). */
  static final MethodDescriptor<byte[], byte[]> SERVER_NOTICE = method(ServerNotice.class.getName(), 6, MethodType.ONEWAY);

  static MethodDescriptor<byte[], byte[]> method(String wireName, int code, MethodType type) {
    return MethodDescriptor.newBuilder(RAW, RAW)
        .serviceName("interop.duplex")
        .methodName("m" + code)
        .wireName(wireName)
        .responseClassName(BoltAnswer.class.getName())
        .methodCode(code)
        .type(type)
        .timeoutMillis(TIMEOUT_MS)
        .build();
  }

  static {
    for (String name : List.of(Trigger.class.getName(), ServerQuestion.class.getName(), ServerNotice.class.getName(),
        SofaAnswer.class.getName(), BoltAnswer.class.getName(), ASK_CLIENT.wireName(), NOTIFY_CLIENT.wireName(),
        ASK_SERVER.wireName())) {
      SofaBolt.registerRaw(name);
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static String string(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }

  private static InvokeContext codec11() {
    return SofaBolt.codec(Marshaller.PROTOBUF);
  }

  @FunctionalInterface
  interface Handler {
    Object handle(BizContext biz, RawContent request) throws Exception;
  }

  static SyncUserProcessor<RawContent> processor(String interest, Handler handler) {
    return new SyncUserProcessor<>() {
      @Override
      public Object handleRequest(BizContext bizCtx, RawContent request) throws Exception {
        return handler.handle(bizCtx, request);
      }

      @Override
      public String interest() {
        return interest;
      }
    };
  }

  // ---------------------------------------------------------------- our server → a SOFABolt client

  @ParameterizedTest
  @EnumSource(WireProtocol.class)
  void ourServerCallsBackASofaClientOverItsConnection(WireProtocol format) throws Exception {
    LinkedBlockingQueue<String> notified = new LinkedBlockingQueue<>();
    LinkedBlockingQueue<WireProtocol> askedIn = new LinkedBlockingQueue<>();
    ServiceDefinition service = ServiceDefinition.builder("interop.duplex", "1.0")
        .method(TRIGGER, (request, call) -> {
          BoltChannel back = ServerContext.current().connection().channel();
          back.invokeOneway(NOTIFY_CLIENT, bytes("notice:" + string(request)), CallOptions.DEFAULT);
          byte[] sync = back.invokeSync(ASK_CLIENT, bytes("sync:" + string(request)), CallOptions.DEFAULT);
          call.respondWith(back.invokeFuture(ASK_CLIENT, bytes("future:" + string(request)), CallOptions.DEFAULT)
              .thenApply(future -> bytes("bolt heard [" + string(sync) + "] and [" + string(future) + "]")));
        })
        .build();
    RpcClient sofa = SofaBolt.startClient(
        processor(ASK_CLIENT.wireName(), (biz, request) -> {
          askedIn.add(SofaBolt.formatOf(biz.getConnection().getChannel()));
          return new SofaAnswer("client answers " + request.text());
        }),
        processor(NOTIFY_CLIENT.wireName(), (biz, request) -> {
          notified.add(request.text());
          return null;
        }));
    try (BoltServer server = BoltServer.builder().bind("127.0.0.1", 0).service(service).build().start()) {
      String url = SofaBolt.url(server.port(), format);

      Object answer = sofa.invokeSync(url, new Trigger("x-" + format), codec11(), TIMEOUT_MS);

      assertThat(((RawContent) answer).text()).isEqualTo("bolt heard [client answers sync:x-" + format
          + "] and [client answers future:x-" + format + "]");
      assertThat(notified.poll(TIMEOUT_MS, TimeUnit.MILLISECONDS)).isEqualTo("notice:x-" + format);
      assertThat(askedIn.poll(TIMEOUT_MS, TimeUnit.MILLISECONDS)).isEqualTo(format);
      SofaBolt.Seen question = SofaBolt.lastRequest(ASK_CLIENT.wireName());
      assertThat(question.codec()).as("codec of our duplex request").isEqualTo(Marshaller.PROTOBUF);
      // our server uses the format of the client's first frame, a request with the CRC bit set
      assertThat(question.crcSwitch()).as("CRC bit of our duplex request").isEqualTo(format != WireProtocol.V1);
      SofaBolt.Seen clientAnswer = SofaBolt.lastResponse(SofaAnswer.class.getName());
      assertThat(clientAnswer.codec()).as("the SOFABolt client echoes our codec").isEqualTo(Marshaller.PROTOBUF);
      assertThat(server.connections()).hasSize(1);
    } finally {
      sofa.shutdown();
    }
  }

  // ---------------------------------------------------------------- a SOFABolt server → our client

  @ParameterizedTest
  @EnumSource(WireProtocol.class)
  void aSofaServerCallsBackOurClientOverItsConnection(WireProtocol format) throws Exception {
    LinkedBlockingQueue<String> notices = new LinkedBlockingQueue<>();
    LinkedBlockingQueue<String> questions = new LinkedBlockingQueue<>();
    ServiceDefinition clientService = ServiceDefinition.builder("interop.duplex.client", "1.0")
        .method(SERVER_QUESTION, (request, call) -> {
          questions.add(string(request) + " (timeout " + ServerContext.current().clientTimeoutMillis() + ")");
          call.respond(bytes("bolt client answers " + string(request)));
        })
        .method(SERVER_NOTICE, (request, call) -> notices.add(string(request)))
        .build();
    RpcServer[] holder = new RpcServer[1];
    RpcServer sofaServer = SofaBolt.startServer(processor(ASK_SERVER.wireName(), (biz, request) -> {
      RpcServer self = holder[0];
      self.oneway(biz.getConnection(), new ServerNotice("notice:" + request.text()), codec11());
      Object sync = self.invokeSync(biz.getConnection(), new ServerQuestion("sync:" + request.text()), codec11(),
          TIMEOUT_MS);
      Object future = self.invokeWithFuture(biz.getConnection(), new ServerQuestion("future:" + request.text()),
          codec11(), TIMEOUT_MS).get(TIMEOUT_MS);
      return new SofaAnswer("sofa heard [" + ((RawContent) sync).text() + "] and ["
          + ((RawContent) future).text() + "]");
    }));
    holder[0] = sofaServer;
    try (BoltClient client = BoltClient.builder().protocol(format).service(clientService).build()) {
      BoltChannel channel = client.channel("127.0.0.1:" + sofaServer.port());

      byte[] answer = channel.invokeSync(ASK_SERVER, bytes("y-" + format), CallOptions.DEFAULT);

      assertThat(string(answer)).isEqualTo("sofa heard [bolt client answers sync:y-" + format
          + "] and [bolt client answers future:y-" + format + "]");
      assertThat(notices.poll(TIMEOUT_MS, TimeUnit.MILLISECONDS)).isEqualTo("notice:y-" + format);
      assertThat(questions.poll(TIMEOUT_MS, TimeUnit.MILLISECONDS)).startsWith("sync:y-" + format + " (timeout ");
      SofaBolt.Seen ourAnswer = SofaBolt.lastResponse(BoltAnswer.class.getName());
      assertThat(ourAnswer.codec()).isEqualTo(Marshaller.PROTOBUF);
      // a SOFABolt server sets the CRC bit on its requests; V1 has no switch byte, V2 echoes it
      assertThat(ourAnswer.crcSwitch()).isEqualTo(format != WireProtocol.V1);
      assertThat(client.connections()).hasSize(1);
    } finally {
      sofaServer.shutdown();
    }
  }

  // ---------------------------------------------------------------- errors, both ways

  /** Served by the SOFABolt client: throws. */
  static final MethodDescriptor<byte[], byte[]> FAILING_CLIENT =
      method("interop.duplex.FailingClient", 7, MethodType.REQUEST_RESPONSE);
  /** Served by our client: throws. */
  static final MethodDescriptor<byte[], byte[]> FAILING_OUR_CLIENT =
      method(FailingQuestion.class.getName(), 8, MethodType.REQUEST_RESPONSE);

  /** A SOFABolt server's request to our client that our client's handler fails. */
  static final class FailingQuestion extends RawContent {
    FailingQuestion(String text) {
      super(text);
    }
  }

  static {
    SofaBolt.registerRaw(FAILING_CLIENT.wireName());
    SofaBolt.registerRaw(FailingQuestion.class.getName());
  }

  @ParameterizedTest
  @EnumSource(WireProtocol.class)
  void aSofaClientHandlerExceptionReachesOurServersDuplexCall(WireProtocol format) throws Exception {
    ServiceDefinition service = ServiceDefinition.builder("interop.duplex", "1.0")
        .method(TRIGGER, (request, call) -> {
          BoltChannel back = ServerContext.current().connection().channel();
          try {
            back.invokeSync(FAILING_CLIENT, request, CallOptions.DEFAULT);
            call.respond(bytes("no error?"));
          } catch (io.boltgen.runtime.BoltException e) {
            call.respond(bytes(e.status() + " " + e.remoteClassName() + " " + e.remoteMessage()));
          }
        })
        .build();
    RpcClient sofa = SofaBolt.startClient(processor(FAILING_CLIENT.wireName(), (biz, request) -> {
      throw new UnsupportedOperationException("client refuses " + request.text());
    }));
    try (BoltServer server = BoltServer.builder().bind("127.0.0.1", 0).service(service).build().start()) {
      Object answer = sofa.invokeSync(SofaBolt.url(server.port(), format), new Trigger("z"), codec11(), TIMEOUT_MS);
      assertThat(((RawContent) answer).text())
          .isEqualTo("SERVER_EXCEPTION java.lang.UnsupportedOperationException client refuses z");
    } finally {
      sofa.shutdown();
    }
  }

  @ParameterizedTest
  @EnumSource(WireProtocol.class)
  void ourClientHandlerExceptionReachesASofaServersDuplexCall(WireProtocol format) throws Exception {
    ServiceDefinition clientService = ServiceDefinition.builder("interop.duplex.client", "1.0")
        .method(FAILING_OUR_CLIENT, (request, call) -> {
          throw new IllegalStateException("bolt client refuses " + string(request));
        })
        .build();
    RpcServer[] holder = new RpcServer[1];
    RpcServer sofaServer = SofaBolt.startServer(processor(ASK_SERVER.wireName(), (biz, request) -> {
      try {
        holder[0].invokeSync(biz.getConnection(), new FailingQuestion(request.text()), codec11(), TIMEOUT_MS);
        return new SofaAnswer("no error?");
      } catch (Exception e) {
        Throwable cause = e.getCause();
        return new SofaAnswer(e.getClass().getSimpleName() + " caused by "
            + (cause == null ? "null" : cause.getClass().getSimpleName() + ": " + cause.getMessage()));
      }
    }));
    holder[0] = sofaServer;
    try (BoltClient client = BoltClient.builder().protocol(format).service(clientService).build()) {
      byte[] answer = client.channel("127.0.0.1:" + sofaServer.port())
          .invokeSync(ASK_SERVER, bytes("w"), CallOptions.DEFAULT);
      assertThat(string(answer))
          .startsWith("InvokeServerException caused by RpcServerException: ")
          .contains("java.lang.IllegalStateException")
          .contains("bolt client refuses w");
    } finally {
      sofaServer.shutdown();
    }
  }

  // ---------------------------------------------------------------- the format of duplex calls

  @ParameterizedTest
  @EnumSource(value = WireProtocol.class, names = "V2_CRC")
  void ourDuplexCallsKeepTheClientsSwitchWhenItsFirstFrameWasAHeartbeat(WireProtocol format) throws Exception {
    ServiceDefinition service = ServiceDefinition.builder("interop.duplex", "1.0")
        .method(TRIGGER, (request, call) -> call.respond(ServerContext.current().connection().channel()
            .invokeSync(ASK_CLIENT, request, CallOptions.DEFAULT)))
        .build();
    RpcClient sofa = SofaBolt.startClient(processor(ASK_CLIENT.wireName(),
        (biz, request) -> new SofaAnswer("answer to " + request.text())));
    try (BoltServer server = BoltServer.builder().bind("127.0.0.1", 0).service(service).build().start()) {
      String url = SofaBolt.url(server.port(), format);
      com.alipay.remoting.Connection connection;
      String previous = System.getProperty(com.alipay.remoting.config.Configs.TCP_IDLE);
      System.setProperty(com.alipay.remoting.config.Configs.TCP_IDLE, "100");
      try {
        connection = sofa.getConnection(url, TIMEOUT_MS);
      } finally {
        if (previous == null) {
          System.clearProperty(com.alipay.remoting.config.Configs.TCP_IDLE);
        } else {
          System.setProperty(com.alipay.remoting.config.Configs.TCP_IDLE, previous);
        }
      }
      SofaBolt.HeartbeatCounter counter = SofaBolt.heartbeats();
      // the first frame our server reads on this connection is a heartbeat (switch 0)
      org.awaitility.Awaitility.await().atMost(java.time.Duration.ofMillis(TIMEOUT_MS))
          .until(() -> counter.acksReceived(connection.getChannel()) >= 1);

      Object answer = sofa.invokeSync(url, new Trigger("q"), codec11(), TIMEOUT_MS);
      assertThat(((RawContent) answer).text()).isEqualTo("answer to q");
      // the client's requests carry the CRC bit; a duplex call of our server should too (SOFABolt latches
      // only the protocol and version of a connection, never the switch of a heartbeat)
      assertThat(SofaBolt.lastRequest(Trigger.class.getName()).crcSwitch()).isTrue();
      assertThat(SofaBolt.lastRequest(ASK_CLIENT.wireName()).crcSwitch())
          .as("CRC bit of our duplex request after a heartbeat came first").isTrue();
    } finally {
      sofa.shutdown();
    }
  }
}
