package io.boltgen.runtime.interop;

import static io.boltgen.runtime.interop.SofaBolt.TIMEOUT_MS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import com.alipay.remoting.Connection;
import com.alipay.remoting.InvokeContext;
import com.alipay.remoting.config.Configs;
import com.alipay.remoting.exception.DeserializationException;
import com.alipay.remoting.rpc.RpcClient;
import com.alipay.remoting.rpc.exception.InvokeException;
import com.alipay.remoting.rpc.exception.InvokeServerBusyException;
import com.alipay.remoting.rpc.exception.InvokeServerException;
import com.alipay.remoting.rpc.exception.RpcServerException;
import io.boltgen.runtime.BoltServer;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.MethodType;
import io.boltgen.runtime.ServerContext;
import io.boltgen.runtime.ServiceDefinition;
import io.boltgen.runtime.WireProtocol;
import io.boltgen.runtime.codec.Marshaller;
import io.boltgen.runtime.codec.RawBytesMarshaller;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A real SOFABolt 1.6.10 {@link RpcClient} calling our {@link BoltServer}, in each frame format: every
 * call style, a handler's exception, a full executor, a codec our method does not take, and the SOFABolt
 * client's heartbeats.
 *
 * <p>A SOFABolt client puts the request object's class name into the className, so each of our methods
 * has the name of one {@link RawContent} subclass as its wire name; a CustomSerializer registered on that
 * className writes the bytes raw, and {@link InvokeContext#BOLT_CUSTOM_SERIALIZER} sets the codec byte to
 * our methods' codec (11), except for one method that takes SOFABolt's default codec 1. Our responses
 * carry the className {@link Reply}, on which the SOFABolt client reads the content raw.
 */
class SofaClientToBoltServerTest {

  static final class EchoRequest extends RawContent {
    EchoRequest(String text) {
      super(text);
    }

    EchoRequest(String text, java.util.Map<String, String> header) {
      super(text.getBytes(StandardCharsets.UTF_8), header);
    }
  }

  static final class FailRequest extends RawContent {
    FailRequest(String text) {
      super(text);
    }
  }

  static final class BlockingRequest extends RawContent {
    BlockingRequest(String text) {
      super(text);
    }
  }

  static final class SinkRequest extends RawContent {
    SinkRequest(String text) {
      super(text);
    }
  }

  /** No method of ours has this className. */
  static final class NobodyRequest extends RawContent {
    NobodyRequest(String text) {
      super(text);
    }
  }

  static final class DefaultCodecRequest extends RawContent {
    DefaultCodecRequest(String text) {
      super(text);
    }
  }

  /** The className of our responses. */
  static final class Reply extends RawContent {
    Reply(String text) {
      super(text);
    }
  }

  private static final Marshaller<byte[]> RAW11 = RawBytesMarshaller.withCodecId(Marshaller.PROTOBUF);
  private static final Marshaller<byte[]> RAW1 = RawBytesMarshaller.withCodecId((byte) 1);

  static final MethodDescriptor<byte[], byte[]> ECHO = method(EchoRequest.class, 1, MethodType.REQUEST_RESPONSE, RAW11);
  static final MethodDescriptor<byte[], byte[]> FAIL = method(FailRequest.class, 2, MethodType.REQUEST_RESPONSE, RAW11);
  static final MethodDescriptor<byte[], byte[]> BLOCKING =
      method(BlockingRequest.class, 3, MethodType.REQUEST_RESPONSE, RAW11);
  static final MethodDescriptor<byte[], byte[]> SINK = method(SinkRequest.class, 4, MethodType.ONEWAY, RAW11);
  static final MethodDescriptor<byte[], byte[]> DEFAULT_CODEC =
      method(DefaultCodecRequest.class, 5, MethodType.REQUEST_RESPONSE, RAW1);

  /** What our echo handler saw of one call. */
  record Seen(String text, int clientTimeout, boolean oneway, java.util.Map<String, String> headers) {}

  private static final LinkedBlockingQueue<Seen> echoed = new LinkedBlockingQueue<>();
  private static final LinkedBlockingQueue<String> sunk = new LinkedBlockingQueue<>();
  private static final LinkedBlockingQueue<String> blockingEntered = new LinkedBlockingQueue<>();
  private static volatile CountDownLatch blockingRelease = new CountDownLatch(0);
  private static BoltServer server;
  private RpcClient client;

  static MethodDescriptor<byte[], byte[]> method(Class<?> requestClass, int code, MethodType type, Marshaller<byte[]> m) {
    return MethodDescriptor.newBuilder(m, m)
        .serviceName("interop.s2b")
        .methodName(requestClass.getSimpleName())
        .wireName(requestClass.getName())
        .responseClassName(Reply.class.getName())
        .methodCode(code)
        .type(type)
        .timeoutMillis(TIMEOUT_MS)
        .build();
  }

  static ServiceDefinition service() {
    return ServiceDefinition.builder("interop.s2b", "1.0")
        .method(ECHO, (request, call) -> {
          ServerContext context = ServerContext.current();
          echoed.add(new Seen(string(request), context.clientTimeoutMillis(), context.isOneway(), context.headers()));
          call.respond(bytes("bolt:" + string(request)));
        })
        .method(FAIL, (request, call) -> {
          throw new IllegalStateException("out of stock: " + string(request));
        })
        .method(BLOCKING, (request, call) -> {
          blockingEntered.add(string(request));
          if (!blockingRelease.await(TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("never released");
          }
          call.respond(bytes("done:" + string(request)));
        })
        .method(SINK, (request, call) -> sunk.add(string(request)))
        .method(DEFAULT_CODEC, (request, call) -> call.respond(bytes("codec1:" + string(request))))
        .build();
  }

  @BeforeAll
  static void startOurServer() {
    for (Class<?> c : List.of(EchoRequest.class, FailRequest.class, BlockingRequest.class, SinkRequest.class,
        DefaultCodecRequest.class, NobodyRequest.class, Reply.class)) {
      SofaBolt.registerRaw(c.getName());
    }
    SofaBolt.heartbeats();
    server = BoltServer.builder().bind("127.0.0.1", 0).service(service()).build().start();
  }

  @AfterAll
  static void stopOurServer() {
    if (server != null) {
      server.close();
    }
  }

  @AfterEach
  void stopSofaClient() {
    if (client != null) {
      client.shutdown();
      client = null;
    }
  }

  private RpcClient sofaClient() {
    client = SofaBolt.startClient();
    return client;
  }

  private static InvokeContext codec11() {
    return SofaBolt.codec(Marshaller.PROTOBUF);
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static String string(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }

  private static String text(Object sofaResult) {
    assertThat(sofaResult).isInstanceOf(RawContent.class);
    return ((RawContent) sofaResult).text();
  }

  private static void assertReplySeen(WireProtocol format) {
    SofaBolt.Seen reply = SofaBolt.lastResponse(Reply.class.getName());
    assertThat(reply.codec()).as("codec byte of our response").isEqualTo(Marshaller.PROTOBUF);
    // a SOFABolt client sets the CRC bit on every request; V1 has no switch byte, V2 echoes it
    assertThat(reply.crcSwitch()).as("CRC bit of our response").isEqualTo(format != WireProtocol.V1);
  }

  @ParameterizedTest
  @EnumSource(WireProtocol.class)
  void syncFutureCallbackAndOnewayFromASofaClient(WireProtocol format) throws Exception {
    RpcClient sofa = sofaClient();
    String url = SofaBolt.url(server.port(), format);
    echoed.clear();

    Object sync = sofa.invokeSync(url, new EchoRequest("sync-" + format), codec11(), TIMEOUT_MS);
    assertThat(text(sync)).isEqualTo("bolt:sync-" + format);
    Seen seen = echoed.poll(TIMEOUT_MS, TimeUnit.MILLISECONDS);
    assertThat(seen.text()).isEqualTo("sync-" + format);
    assertThat(seen.clientTimeout()).isBetween(1, TIMEOUT_MS);
    assertThat(seen.oneway()).isFalse();
    assertReplySeen(format);
    SofaBolt.Seen request = SofaBolt.lastRequest(EchoRequest.class.getName());
    assertThat(request.codec()).isEqualTo(Marshaller.PROTOBUF);

    // the CRC bit can be turned off per call: our response echoes the request's switch
    InvokeContext noCrc = codec11();
    noCrc.put(InvokeContext.BOLT_CRC_SWITCH, false);
    assertThat(text(sofa.invokeSync(url, new EchoRequest("no-crc"), noCrc, TIMEOUT_MS))).isEqualTo("bolt:no-crc");
    assertThat(SofaBolt.lastResponse(Reply.class.getName()).crcSwitch()).isFalse();

    Object future = sofa.invokeWithFuture(url, new EchoRequest("future-" + format), codec11(), TIMEOUT_MS)
        .get(TIMEOUT_MS);
    assertThat(text(future)).isEqualTo("bolt:future-" + format);

    CompletableFuture<Object> callback = new CompletableFuture<>();
    sofa.invokeWithCallback(url, new EchoRequest("callback-" + format), codec11(),
        SofaBolt.callback(callback, null), TIMEOUT_MS);
    assertThat(text(callback.get(TIMEOUT_MS, TimeUnit.MILLISECONDS))).isEqualTo("bolt:callback-" + format);

    sunk.clear();
    sofa.oneway(url, new SinkRequest("oneway-" + format), codec11());
    assertThat(sunk.poll(TIMEOUT_MS, TimeUnit.MILLISECONDS)).isEqualTo("oneway-" + format);

    // SOFABolt's default codec (1, no invoke context) reaches a method whose marshaller declares codec 1
    Object defaultCodec = sofa.invokeSync(url, new DefaultCodecRequest("plain-" + format), TIMEOUT_MS);
    assertThat(text(defaultCodec)).isEqualTo("codec1:plain-" + format);
    assertThat(SofaBolt.lastResponse(Reply.class.getName()).codec()).isEqualTo((byte) 1);

    // many calls in flight on the one connection each get their own answer
    List<com.alipay.remoting.rpc.RpcResponseFuture> many = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      many.add(sofa.invokeWithFuture(url, new EchoRequest("many-" + i), codec11(), TIMEOUT_MS));
    }
    for (int i = 0; i < 50; i++) {
      assertThat(text(many.get(i).get(TIMEOUT_MS))).isEqualTo("bolt:many-" + i);
    }
    await().atMost(Duration.ofMillis(TIMEOUT_MS)).until(() -> server.connections().size() == 1);
  }

  @ParameterizedTest
  @EnumSource(WireProtocol.class)
  void ourHandlerExceptionReachesTheSofaClientAsInvokeServerException(WireProtocol format) throws Exception {
    RpcClient sofa = sofaClient();
    String url = SofaBolt.url(server.port(), format);
    // each call style is checked on its own, so one failing does not hide what the others do
    SoftAssertions softly = new SoftAssertions();

    Throwable sync = catchThrowable(() -> sofa.invokeSync(url, new FailRequest("apple-" + format), codec11(), TIMEOUT_MS));
    softly.assertThat(sync).as("sync").isInstanceOf(InvokeServerException.class);
    softly.assertThat(sync == null ? null : sync.getCause()).as("cause of the sync failure")
        .isInstanceOf(RpcServerException.class)
        .hasMessageContaining("java.lang.IllegalStateException")
        .hasMessageContaining("out of stock: apple-" + format);

    Throwable future = catchThrowable(() -> sofa.invokeWithFuture(url, new FailRequest("fig"), codec11(), TIMEOUT_MS)
        .get(TIMEOUT_MS));
    softly.assertThat(future).as("future").isInstanceOf(InvokeServerException.class);
    softly.assertThat(future == null ? null : future.getCause()).as("cause of the future failure")
        .isInstanceOf(RpcServerException.class)
        .hasMessageContaining("out of stock: fig");

    // a SOFABolt client answers the callback on its executor once it has read the response; our server
    // answers at once, so 5 s is plenty
    CompletableFuture<Object> callback = new CompletableFuture<>();
    sofa.invokeWithCallback(url, new FailRequest("pear"), codec11(), SofaBolt.callback(callback, null), TIMEOUT_MS);
    Throwable viaCallback = catchThrowable(() -> callback.get(5_000, TimeUnit.MILLISECONDS));
    softly.assertThat(viaCallback).as("callback outcome").isInstanceOf(java.util.concurrent.ExecutionException.class);
    Throwable callbackError = viaCallback == null ? null : viaCallback.getCause();
    softly.assertThat(callbackError).as("callback onException").isInstanceOf(InvokeServerException.class);
    softly.assertThat(callbackError == null ? null : callbackError.getCause()).as("cause given to onException")
        .isInstanceOf(RpcServerException.class)
        .hasMessageContaining("out of stock: pear");

    // the connection still works after error responses
    softly.assertThat(text(sofa.invokeSync(url, new EchoRequest("after"), codec11(), TIMEOUT_MS)))
        .isEqualTo("bolt:after");
    softly.assertAll();
  }

  @ParameterizedTest
  @EnumSource(WireProtocol.class)
  void aCodecOurMethodDoesNotTakeIsRefusedAsServerDeserialException(WireProtocol format) throws Exception {
    RpcClient sofa = sofaClient();
    String url = SofaBolt.url(server.port(), format);
    // codec 1 (SOFABolt's default) to a method whose marshaller declares 11: status 0x12
    assertThatThrownBy(() -> sofa.invokeSync(url, new EchoRequest("wrong codec"), TIMEOUT_MS))
        .isInstanceOfSatisfying(DeserializationException.class, e -> {
          assertThat(e.isServerSide()).as("SOFABolt read status 0x12 (server side)").isTrue();
          assertThat(e.getCause()).isInstanceOf(RpcServerException.class);
          assertThat(e.getCause().getMessage()).contains("codec 1").contains(EchoRequest.class.getName());
        });
    assertThat(text(sofa.invokeSync(url, new EchoRequest("then"), codec11(), TIMEOUT_MS))).isEqualTo("bolt:then");
  }

  @ParameterizedTest
  @EnumSource(WireProtocol.class)
  void anUnknownClassNameIsAnsweredAndTheConnectionSurvives(WireProtocol format) throws Exception {
    RpcClient sofa = sofaClient();
    String url = SofaBolt.url(server.port(), format);
    // our server answers 0x06 NO_PROCESSOR, which a SOFABolt client reports as a plain InvokeException
    assertThatThrownBy(() -> sofa.invokeSync(url, new NobodyRequest("anyone?"), codec11(), TIMEOUT_MS))
        .isInstanceOf(InvokeException.class)
        .hasMessageContaining("NO_PROCESSOR");
    assertThat(text(sofa.invokeSync(url, new EchoRequest("still there"), codec11(), TIMEOUT_MS)))
        .isEqualTo("bolt:still there");
  }

  @ParameterizedTest
  @EnumSource(WireProtocol.class)
  void headersAndALargePayloadFromASofaClient(WireProtocol format) throws Exception {
    RpcClient sofa = sofaClient();
    String url = SofaBolt.url(server.port(), format);
    echoed.clear();
    java.util.Map<String, String> header = new java.util.LinkedHashMap<>();
    header.put("service", "interop.s2b:1.0");
    header.put("sofa_head_method_name", "Echo");
    header.put("caf\u00e9", "\u4e2d\u6587 \ud83d\ude00");
    header.put("empty", "");
    Object reply = sofa.invokeSync(url, new EchoRequest("with header", header), codec11(), TIMEOUT_MS);
    assertThat(text(reply)).isEqualTo("bolt:with header");
    assertThat(echoed.poll(TIMEOUT_MS, TimeUnit.MILLISECONDS).headers())
        .as("the header our handler read").containsExactlyEntriesOf(header);

    // 1 MiB each way: many TCP segments, and on V2_CRC a CRC over the whole frame
    StringBuilder big = new StringBuilder(1 << 20);
    java.util.Random random = new java.util.Random(7);
    while (big.length() < (1 << 20)) {
      big.append((char) ('a' + random.nextInt(26)));
    }
    String text = big.toString();
    assertThat(text(sofa.invokeSync(url, new EchoRequest(text), codec11(), TIMEOUT_MS))).isEqualTo("bolt:" + text);
    assertThat(echoed.poll(TIMEOUT_MS, TimeUnit.MILLISECONDS).headers()).isEmpty();
    assertThat(SofaBolt.lastResponse(Reply.class.getName()).contentLength()).isEqualTo((1 << 20) + 5);
  }

  @ParameterizedTest
  @EnumSource(WireProtocol.class)
  void aSofaClientWithSeveralConnectionsUsesThemAll(WireProtocol format) throws Exception {
    try (BoltServer own = BoltServer.builder().bind("127.0.0.1", 0).service(service()).build().start()) {
      RpcClient sofa = sofaClient();
      String url = SofaBolt.url(own.port(), format) + "&_CONNECTIONNUM=3&_CONNECTIONWARMUP=true";
      List<com.alipay.remoting.rpc.RpcResponseFuture> calls = new ArrayList<>();
      for (int i = 0; i < 30; i++) {
        calls.add(sofa.invokeWithFuture(url, new EchoRequest("n" + i), codec11(), TIMEOUT_MS));
      }
      for (int i = 0; i < 30; i++) {
        assertThat(text(calls.get(i).get(TIMEOUT_MS))).isEqualTo("bolt:n" + i);
      }
      assertThat(own.connections()).hasSize(3);
      echoed.clear();
    }
  }

  @ParameterizedTest
  @EnumSource(WireProtocol.class)
  void aFullExecutorOfOurServerReachesTheSofaClientAsServerBusy(WireProtocol format) throws Exception {
    ThreadPoolExecutor pool = SofaBolt.tinyPool();
    CountDownLatch release = new CountDownLatch(1);
    blockingRelease = release;
    blockingEntered.clear();
    try (BoltServer busy = BoltServer.builder().bind("127.0.0.1", 0).executor(pool).service(service()).build().start()) {
      RpcClient sofa = sofaClient();
      String url = SofaBolt.url(busy.port(), format);
      var running = sofa.invokeWithFuture(url, new BlockingRequest("running"), codec11(), TIMEOUT_MS);
      assertThat(blockingEntered.poll(TIMEOUT_MS, TimeUnit.MILLISECONDS)).isEqualTo("running");
      var queued = sofa.invokeWithFuture(url, new BlockingRequest("queued"), codec11(), TIMEOUT_MS);
      await().atMost(Duration.ofMillis(TIMEOUT_MS)).until(() -> pool.getQueue().size() == 1);

      assertThatThrownBy(() -> sofa.invokeSync(url, new BlockingRequest("refused"), codec11(), TIMEOUT_MS))
          .isInstanceOf(InvokeServerBusyException.class);

      release.countDown();
      assertThat(text(running.get(TIMEOUT_MS))).isEqualTo("done:running");
      assertThat(text(queued.get(TIMEOUT_MS))).isEqualTo("done:queued");
      assertThat(blockingEntered).containsExactly("queued");
    } finally {
      release.countDown();
      pool.shutdownNow();
    }
  }

  /** A SOFABolt connection made while {@code bolt.tcp.heartbeat.interval} is {@code intervalMillis}. */
  private static Connection connectWithHeartbeatInterval(RpcClient sofa, String url, int intervalMillis)
      throws Exception {
    // SOFABolt reads the interval when it builds a connection's pipeline: set it for this connection only
    String previous = System.getProperty(Configs.TCP_IDLE);
    System.setProperty(Configs.TCP_IDLE, Integer.toString(intervalMillis));
    try {
      return sofa.getConnection(url, TIMEOUT_MS);
    } finally {
      if (previous == null) {
        System.clearProperty(Configs.TCP_IDLE);
      } else {
        System.setProperty(Configs.TCP_IDLE, previous);
      }
    }
  }

  @ParameterizedTest
  @EnumSource(WireProtocol.class)
  void theSofaClientsHeartbeatsAreAnsweredByOurServer(WireProtocol format) throws Exception {
    RpcClient sofa = sofaClient();
    String url = SofaBolt.url(server.port(), format);
    Connection connection = connectWithHeartbeatInterval(sofa, url, 100);
    assertThat(SofaBolt.formatOf(connection.getChannel())).isEqualTo(format);
    SofaBolt.HeartbeatCounter counter = SofaBolt.heartbeats();

    // acks keep coming over ≥ 10 of SOFABolt's heartbeat intervals (it closes after 3 failures)
    await().atMost(Duration.ofMillis(TIMEOUT_MS)).until(() -> counter.acksReceived(connection.getChannel()) >= 10);
    assertThat(connection.getChannel().attr(Connection.HEARTBEAT_COUNT).get()).isZero();

    // two failures on record: only an ack with SUCCESS brings the count back to 0
    connection.getChannel().attr(Connection.HEARTBEAT_COUNT).set(2);
    await().atMost(Duration.ofMillis(TIMEOUT_MS))
        .until(() -> connection.getChannel().attr(Connection.HEARTBEAT_COUNT).get() == 0);
    int acks = counter.acksReceived(connection.getChannel());
    await().atMost(Duration.ofMillis(TIMEOUT_MS)).until(() -> counter.acksReceived(connection.getChannel()) >= acks + 3);

    assertThat(connection.isFine()).isTrue();
    assertThat(connection.getChannel().isActive()).isTrue();
    assertThat(sofa.getConnection(url, TIMEOUT_MS)).isSameAs(connection);
    await().atMost(Duration.ofMillis(TIMEOUT_MS)).until(() -> server.connections().size() == 1);
    assertThat(text(sofa.invokeSync(url, new EchoRequest("after heartbeats"), codec11(), TIMEOUT_MS)))
        .isEqualTo("bolt:after heartbeats");
  }

  @ParameterizedTest
  @EnumSource(WireProtocol.class)
  void ourIdleTimeoutClosesASilentSofaConnectionButNotAHeartbeatingOne(WireProtocol format) throws Exception {
    // our server closes connections idle for 1.5 s; one SOFABolt client sends a heartbeat after 100 ms,
    // the other keeps its default of 15 s
    try (BoltServer idle = BoltServer.builder().bind("127.0.0.1", 0).idleTimeout(Duration.ofMillis(1500))
        .service(service()).build().start()) {
      RpcClient beating = sofaClient();
      String url = SofaBolt.url(idle.port(), format);
      Connection beatingConnection = connectWithHeartbeatInterval(beating, url, 100);
      RpcClient quiet = SofaBolt.startClient();
      try {
        Connection silent = quiet.getConnection(url, TIMEOUT_MS);
        long start = System.nanoTime();
        await().atMost(Duration.ofMillis(TIMEOUT_MS)).until(() -> !silent.getChannel().isActive());
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isGreaterThanOrEqualTo(1_000L);

        // over the same idle period the heartbeating connection stayed open and acked
        assertThat(beatingConnection.getChannel().isActive()).isTrue();
        assertThat(beatingConnection.getChannel().attr(Connection.HEARTBEAT_COUNT).get()).isZero();
        assertThat(SofaBolt.heartbeats().acksReceived(beatingConnection.getChannel())).isGreaterThanOrEqualTo(5);
        // the server forgets the closed connection on its own IO thread, maybe after the client saw it close
        await().atMost(Duration.ofMillis(TIMEOUT_MS)).until(() -> idle.connections().size() == 1);
        assertThat(text(beating.invokeSync(url, new EchoRequest("alive"), codec11(), TIMEOUT_MS)))
            .isEqualTo("bolt:alive");
        assertThat(beating.getConnection(url, TIMEOUT_MS)).isSameAs(beatingConnection);
      } finally {
        quiet.shutdown();
      }
    }
  }
}
