package io.boltgen.runtime.interop;

import static io.boltgen.runtime.interop.SofaBolt.TIMEOUT_MS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import com.alipay.remoting.BizContext;
import com.alipay.remoting.config.Configs;
import com.alipay.remoting.rpc.RpcServer;
import com.alipay.remoting.rpc.protocol.SyncUserProcessor;
import io.boltgen.annotation.BoltCallback;
import io.boltgen.runtime.BoltChannel;
import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.CallOptions;
import io.boltgen.runtime.Connection;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.MethodType;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.WireProtocol;
import io.boltgen.runtime.codec.Marshaller;
import io.boltgen.runtime.codec.RawBytesMarshaller;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Our {@link BoltClient} calling a real SOFABolt 1.6.10 {@link RpcServer}, in each frame format: every
 * call style, headers, large frames, several connections, a handler's exception, a className SOFABolt
 * does not serve, a full executor, SOFABolt's idle close, and heartbeats.
 *
 * <p>The SOFABolt side serves each of our methods with a UserProcessor whose {@code interest()} is the
 * method's wire name and reads/writes the content as raw bytes through a CustomSerializer registered on
 * that className (request) and on its reply class (response). Our requests carry codec 11 (protobuf).
 */
class BoltClientToSofaServerTest {

  private static final Marshaller<byte[]> RAW = RawBytesMarshaller.withCodecId(Marshaller.PROTOBUF);

  static final MethodDescriptor<byte[], byte[]> ECHO = method("interop.c2s.Echo", 1, MethodType.REQUEST_RESPONSE);
  static final MethodDescriptor<byte[], byte[]> FAIL = method("interop.c2s.Fail", 2, MethodType.REQUEST_RESPONSE);
  static final MethodDescriptor<byte[], byte[]> BLOCKING = method("interop.c2s.Blocking", 3, MethodType.REQUEST_RESPONSE);
  static final MethodDescriptor<byte[], byte[]> SINK = method("interop.c2s.Sink", 4, MethodType.ONEWAY);
  /** No SOFABolt processor has this interest. */
  static final MethodDescriptor<byte[], byte[]> NOBODY = method("interop.c2s.Nobody", 5, MethodType.REQUEST_RESPONSE);

  /** What the SOFABolt handlers return: its class name is the response className. */
  static final class Reply extends RawContent {
    Reply(String text) {
      super(text);
    }
  }

  /** What the echo handler saw of one request. */
  record EchoSeen(String text, WireProtocol format) {}

  private static RpcServer server;
  private static final LinkedBlockingQueue<EchoSeen> echoed = new LinkedBlockingQueue<>();
  private static final LinkedBlockingQueue<String> sunk = new LinkedBlockingQueue<>();
  private static volatile ThreadPoolExecutor blockingPool;
  private static volatile CountDownLatch blockingRelease = new CountDownLatch(0);
  private static final LinkedBlockingQueue<String> blockingEntered = new LinkedBlockingQueue<>();

  static MethodDescriptor<byte[], byte[]> method(String wireName, int code, MethodType type) {
    return MethodDescriptor.newBuilder(RAW, RAW)
        .serviceName("interop.c2s")
        .methodName(wireName.substring(wireName.lastIndexOf('.') + 1))
        .wireName(wireName)
        .methodCode(code)
        .type(type)
        .timeoutMillis(TIMEOUT_MS)
        .build();
  }

  @BeforeAll
  static void startSofaServer() {
    for (MethodDescriptor<?, ?> m : List.of(ECHO, FAIL, BLOCKING, SINK)) {
      SofaBolt.registerRaw(m.wireName());
    }
    SofaBolt.registerRaw(Reply.class.getName());
    SofaBolt.heartbeats();
    server = SofaBolt.startServer(
        processor(ECHO, (biz, request) -> {
          echoed.add(new EchoSeen(request.text(), SofaBolt.formatOf(biz.getConnection().getChannel())));
          return new Reply("sofa:" + request.text());
        }),
        processor(FAIL, (biz, request) -> {
          throw new IllegalArgumentException("no such sku: " + request.text());
        }),
        new Processor(BLOCKING, (biz, request) -> {
          blockingEntered.add(request.text());
          if (!blockingRelease.await(TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("never released");
          }
          return new Reply("done:" + request.text());
        }) {
          @Override
          public Executor getExecutor() {
            return blockingPool;
          }
        },
        processor(SINK, (biz, request) -> {
          sunk.add(request.text());
          return null;
        }));
  }

  @AfterAll
  static void stopSofaServer() {
    if (server != null) {
      server.shutdown();
    }
    if (blockingPool != null) {
      blockingPool.shutdownNow();
    }
  }

  @FunctionalInterface
  interface Handler {
    Object handle(BizContext biz, RawContent request) throws Exception;
  }

  static class Processor extends SyncUserProcessor<RawContent> {
    private final String interest;
    private final Handler handler;

    Processor(MethodDescriptor<?, ?> method, Handler handler) {
      this.interest = method.wireName();
      this.handler = handler;
    }

    @Override
    public Object handleRequest(BizContext bizCtx, RawContent request) throws Exception {
      return handler.handle(bizCtx, request);
    }

    @Override
    public String interest() {
      return interest;
    }
  }

  static Processor processor(MethodDescriptor<?, ?> method, Handler handler) {
    return new Processor(method, handler);
  }

  private static BoltClient client(WireProtocol format) {
    return BoltClient.builder().protocol(format).build();
  }

  private static String address() {
    return "127.0.0.1:" + server.port();
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static String string(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }

  private static void assertEcho(String text, WireProtocol format) throws InterruptedException {
    EchoSeen seen = echoed.poll(TIMEOUT_MS, TimeUnit.MILLISECONDS);
    assertThat(seen).as("the SOFABolt echo handler ran").isNotNull();
    assertThat(seen.text()).isEqualTo(text);
    assertThat(seen.format()).as("the frame format SOFABolt latched").isEqualTo(format);
    SofaBolt.Seen request = SofaBolt.lastRequest(ECHO.wireName());
    assertThat(request.codec()).as("codec byte SOFABolt read").isEqualTo(Marshaller.PROTOBUF);
    assertThat(request.crcSwitch()).as("CRC switch bit SOFABolt read").isEqualTo(format == WireProtocol.V2_CRC);
    assertThat(request.contentLength()).isEqualTo(bytes(text).length);
  }

  @ParameterizedTest
  @EnumSource(WireProtocol.class)
  void syncFutureCallbackAndOnewayReachTheSofaServer(WireProtocol format) throws Exception {
    echoed.clear();
    try (BoltClient client = client(format)) {
      BoltChannel channel = client.channel(address());

      byte[] sync = channel.invokeSync(ECHO, bytes("sync-" + format), CallOptions.DEFAULT);
      assertThat(string(sync)).isEqualTo("sofa:sync-" + format);
      assertEcho("sync-" + format, format);
      SofaBolt.Seen reply = SofaBolt.lastResponse(Reply.class.getName());
      assertThat(reply.codec()).as("SOFABolt echoes the request codec").isEqualTo(Marshaller.PROTOBUF);
      assertThat(reply.crcSwitch()).isEqualTo(format == WireProtocol.V2_CRC);

      CompletableFuture<byte[]> future = channel.invokeFuture(ECHO, bytes("future-" + format), CallOptions.DEFAULT);
      assertThat(string(future.get(TIMEOUT_MS, TimeUnit.MILLISECONDS))).isEqualTo("sofa:future-" + format);
      assertEcho("future-" + format, format);

      LinkedBlockingQueue<Object> outcomes = new LinkedBlockingQueue<>();
      channel.invokeCallback(ECHO, bytes("callback-" + format), CallOptions.DEFAULT, new BoltCallback<byte[]>() {
        @Override
        public void onResponse(byte[] result) {
          outcomes.add(string(result) + " on " + Thread.currentThread().getName());
        }

        @Override
        public void onError(Throwable error) {
          outcomes.add(error);
        }
      });
      assertThat(outcomes.poll(TIMEOUT_MS, TimeUnit.MILLISECONDS)).asString()
          .startsWith("sofa:callback-" + format + " on boltgen-callback");
      assertEcho("callback-" + format, format);

      sunk.clear();
      channel.invokeOneway(SINK, bytes("oneway-" + format), CallOptions.DEFAULT);
      assertThat(sunk.poll(TIMEOUT_MS, TimeUnit.MILLISECONDS)).isEqualTo("oneway-" + format);
      SofaBolt.Seen oneway = SofaBolt.lastRequest(SINK.wireName());
      assertThat(oneway.codec()).isEqualTo(Marshaller.PROTOBUF);

      // pipelined calls on the one connection all come back, each to its own caller
      List<CompletableFuture<byte[]>> many = new java.util.ArrayList<>();
      for (int i = 0; i < 50; i++) {
        many.add(channel.invokeFuture(ECHO, bytes("many-" + i), CallOptions.DEFAULT));
      }
      for (int i = 0; i < 50; i++) {
        assertThat(string(many.get(i).get(TIMEOUT_MS, TimeUnit.MILLISECONDS))).isEqualTo("sofa:many-" + i);
      }
      assertThat(client.connections(new InetSocketAddress("127.0.0.1", server.port()))).hasSize(1);
    }
  }

  @ParameterizedTest
  @EnumSource(WireProtocol.class)
  void aSofaHandlerExceptionArrivesAsServerExceptionWithClassAndMessage(WireProtocol format) throws Exception {
    try (BoltClient client = client(format)) {
      BoltChannel channel = client.channel(address());
      assertThatThrownBy(() -> channel.invokeSync(FAIL, bytes("apple-" + format), CallOptions.DEFAULT))
          .isInstanceOfSatisfying(BoltException.class, e -> {
            assertThat(e.status()).isEqualTo(ResponseStatus.SERVER_EXCEPTION);
            assertThat(e.remoteClassName()).isEqualTo("java.lang.IllegalArgumentException");
            assertThat(e.remoteMessage()).isEqualTo("no such sku: apple-" + format);
            assertThat(e.getMessage()).contains("interop.c2s.Fail").contains("no such sku: apple-" + format);
            assertThat(e.requestId()).isNotZero();
          });

      // the same through a future: the connection is still good after an error response
      CompletableFuture<byte[]> failed = channel.invokeFuture(FAIL, bytes("pear"), CallOptions.DEFAULT);
      assertThatThrownBy(() -> failed.get(TIMEOUT_MS, TimeUnit.MILLISECONDS))
          .cause()
          .isInstanceOfSatisfying(BoltException.class, e -> {
            assertThat(e.status()).isEqualTo(ResponseStatus.SERVER_EXCEPTION);
            assertThat(e.remoteClassName()).isEqualTo("java.lang.IllegalArgumentException");
            assertThat(e.remoteMessage()).isEqualTo("no such sku: pear");
          });
      assertThat(string(channel.invokeSync(ECHO, bytes("after-error"), CallOptions.DEFAULT)))
          .isEqualTo("sofa:after-error");
    }
  }

  @ParameterizedTest
  @EnumSource(WireProtocol.class)
  void aStreamingCallFailsAtOnceAndUnaryCallsGoOn(WireProtocol format) throws Exception {
    try (BoltClient client = client(format)) {
      BoltChannel channel = client.channel(address());
      // a className SOFABolt serves: its processor answers one message, which is no stream's
      MethodDescriptor<byte[], byte[]> served = method(ECHO.wireName(), 6, MethodType.SERVER_STREAMING);
      assertThat(firstFailure(channel, served)).isInstanceOfSatisfying(BoltException.class, e -> {
        assertThat(e.status()).isEqualTo(ResponseStatus.NO_PROCESSOR);
        assertThat(e.getMessage()).startsWith("the server ").contains(" does not stream ")
            .endsWith("Echo (a SOFABolt server has no streams): it answered with one message");
      });
      // a className it does not serve: its own refusal, at once
      MethodDescriptor<byte[], byte[]> unserved = method(NOBODY.wireName(), 7, MethodType.SERVER_STREAMING);
      assertThat(firstFailure(channel, unserved)).isInstanceOfSatisfying(BoltException.class, e ->
          assertThat(e.remoteMessage()).isEqualTo("No user processor found for request: interop.c2s.Nobody"));
      assertThat(string(channel.invokeSync(ECHO, bytes("unary"), CallOptions.DEFAULT))).isEqualTo("sofa:unary");
    }
  }

  @ParameterizedTest
  @EnumSource(WireProtocol.class)
  void aStreamOfRequestsFailsAtOnceAndUnaryCallsGoOn(WireProtocol format) throws Exception {
    try (BoltClient client = client(format)) {
      BoltChannel channel = client.channel(address());
      // the request of a stream of requests carries no message: a SOFABolt server answers it at once, as one message
      // or its refusal, and grants no credit, so the caller's messages never leave
      for (String className : List.of(ECHO.wireName(), NOBODY.wireName())) {
        MethodDescriptor<byte[], byte[]> streaming = method(className, 8, MethodType.CLIENT_STREAMING);
        java.util.concurrent.ExecutionException failed = catchThrowableOfType(
            java.util.concurrent.ExecutionException.class, () -> channel.invokeClientStream(streaming,
                io.boltgen.runtime.Publishers.of(List.of(bytes("a"), bytes("b"))), CallOptions.DEFAULT)
                .get(TIMEOUT_MS, TimeUnit.MILLISECONDS));
        assertThat(failed.getCause()).as(className).isInstanceOf(BoltException.class);
      }
      assertThat(string(channel.invokeSync(ECHO, bytes("unary"), CallOptions.DEFAULT))).isEqualTo("sofa:unary");
    }
  }

  /** What a subscriber to {@code method}'s stream is told first: its failure (within a bound, never a message). */
  private static Throwable firstFailure(BoltChannel channel, MethodDescriptor<byte[], byte[]> method)
      throws Exception {
    java.util.concurrent.CompletableFuture<Throwable> told = new java.util.concurrent.CompletableFuture<>();
    channel.invokeStream(method, bytes("stream?"), CallOptions.DEFAULT).subscribe(
        new java.util.concurrent.Flow.Subscriber<byte[]>() {
          @Override
          public void onSubscribe(java.util.concurrent.Flow.Subscription s) {
            s.request(10);
          }

          @Override
          public void onNext(byte[] item) {
            told.complete(new AssertionError("a message: " + string(item)));
          }

          @Override
          public void onError(Throwable error) {
            told.complete(error);
          }

          @Override
          public void onComplete() {
            told.complete(new AssertionError("completed"));
          }
        });
    return told.get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
  }

  @ParameterizedTest
  @EnumSource(WireProtocol.class)
  void anUnknownClassNameGetsSofaBoltsServerException(WireProtocol format) {
    try (BoltClient client = client(format)) {
      BoltChannel channel = client.channel(address());
      // SOFABolt answers a className without processor with 0x02 and an RpcServerException whose message
      // is just "No user processor found for request: <className>" (no OriginErrorMsg part)
      assertThatThrownBy(() -> channel.invokeSync(NOBODY, bytes("anyone?"), CallOptions.DEFAULT))
          .isInstanceOfSatisfying(BoltException.class, e -> {
            assertThat(e.status()).isEqualTo(ResponseStatus.SERVER_EXCEPTION);
            assertThat(e.remoteClassName()).isEqualTo("com.alipay.remoting.rpc.exception.RpcServerException");
            assertThat(e.remoteMessage()).isEqualTo("No user processor found for request: interop.c2s.Nobody");
          });
      assertThat(string(channel.invokeSync(ECHO, bytes("still there"), CallOptions.DEFAULT)))
          .isEqualTo("sofa:still there");
    }
  }

  @ParameterizedTest
  @EnumSource(WireProtocol.class)
  void headersAndALargePayloadReachTheSofaServer(WireProtocol format) throws Exception {
    echoed.clear();
    try (BoltClient client = client(format)) {
      BoltChannel channel = client.channel(address());
      CallOptions options = CallOptions.DEFAULT
          .withHeader("service", "interop.c2s:1.0")
          .withHeader("sofa_head_method_name", "Echo")
          .withHeader("caf\u00e9", "\u4e2d\u6587 \ud83d\ude00")
          .withHeader("empty", "");
      assertThat(string(channel.invokeSync(ECHO, bytes("with header"), options))).isEqualTo("sofa:with header");
      assertThat(SofaBolt.lastRequest(ECHO.wireName()).header())
          .as("the header SOFABolt carried, read in SOFARPC's layout")
          .containsExactlyEntriesOf(options.headers());
      echoed.clear();

      // 1 MiB each way: many TCP segments, and on V2_CRC a CRC over the whole frame
      StringBuilder big = new StringBuilder(1 << 20);
      java.util.Random random = new java.util.Random(42);
      while (big.length() < (1 << 20)) {
        big.append((char) ('a' + random.nextInt(26)));
      }
      String text = big.toString();
      assertThat(string(channel.invokeSync(ECHO, bytes(text), CallOptions.DEFAULT))).isEqualTo("sofa:" + text);
      assertThat(SofaBolt.lastRequest(ECHO.wireName()).contentLength()).isEqualTo(1 << 20);
      assertThat(SofaBolt.lastRequest(ECHO.wireName()).header()).isNull();
      echoed.clear();
    }
  }

  @ParameterizedTest
  @EnumSource(WireProtocol.class)
  void severalConnectionsPerAddressAllWork(WireProtocol format) throws Exception {
    echoed.clear();
    try (BoltClient client = BoltClient.builder().protocol(format).connectionsPerAddress(3).build()) {
      InetSocketAddress remote = new InetSocketAddress("127.0.0.1", server.port());
      client.connect(remote).get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
      assertThat(client.connections(remote)).hasSize(3);
      BoltChannel channel = client.channel(remote);
      List<CompletableFuture<byte[]>> calls = new java.util.ArrayList<>();
      for (int i = 0; i < 30; i++) {
        calls.add(channel.invokeFuture(ECHO, bytes("c" + i), CallOptions.DEFAULT));
      }
      for (int i = 0; i < 30; i++) {
        assertThat(string(calls.get(i).get(TIMEOUT_MS, TimeUnit.MILLISECONDS))).isEqualTo("sofa:c" + i);
      }
      java.util.Set<WireProtocol> formats = new java.util.HashSet<>();
      for (int i = 0; i < 30; i++) {
        formats.add(echoed.poll(TIMEOUT_MS, TimeUnit.MILLISECONDS).format());
      }
      assertThat(formats).containsExactly(format);
      echoed.clear();
    }
  }

  @ParameterizedTest
  @EnumSource(WireProtocol.class)
  void aFullSofaExecutorAnswersServerThreadpoolBusy(WireProtocol format) throws Exception {
    ThreadPoolExecutor pool = SofaBolt.tinyPool();
    CountDownLatch release = new CountDownLatch(1);
    blockingPool = pool;
    blockingRelease = release;
    blockingEntered.clear();
    try (BoltClient client = client(format)) {
      BoltChannel channel = client.channel(address());
      CompletableFuture<byte[]> running = channel.invokeFuture(BLOCKING, bytes("running"), CallOptions.DEFAULT);
      assertThat(blockingEntered.poll(TIMEOUT_MS, TimeUnit.MILLISECONDS)).isEqualTo("running");
      CompletableFuture<byte[]> queued = channel.invokeFuture(BLOCKING, bytes("queued"), CallOptions.DEFAULT);
      await().atMost(Duration.ofMillis(TIMEOUT_MS)).until(() -> pool.getQueue().size() == 1);

      assertThatThrownBy(() -> channel.invokeSync(BLOCKING, bytes("refused"), CallOptions.DEFAULT))
          .isInstanceOfSatisfying(BoltException.class, e -> {
            assertThat(e.status()).isEqualTo(ResponseStatus.SERVER_THREADPOOL_BUSY);
            assertThat(e.remoteClassName()).isNull();
          });

      release.countDown();
      assertThat(string(running.get(TIMEOUT_MS, TimeUnit.MILLISECONDS))).isEqualTo("done:running");
      assertThat(string(queued.get(TIMEOUT_MS, TimeUnit.MILLISECONDS))).isEqualTo("done:queued");
      assertThat(blockingEntered).containsExactly("queued");
    } finally {
      release.countDown();
      pool.shutdownNow();
    }
  }

  @ParameterizedTest
  @EnumSource(WireProtocol.class)
  void aSofaServersIdleCloseFailsPendingCallsAtOnceButSparesHeartbeatingConnections(WireProtocol format)
      throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    LinkedBlockingQueue<String> entered = new LinkedBlockingQueue<>();
    RpcServer idle;
    // SOFABolt reads its server idle time when it starts: 1.5 s for this server only
    String previous = System.getProperty(Configs.TCP_SERVER_IDLE);
    System.setProperty(Configs.TCP_SERVER_IDLE, "1500");
    try {
      idle = SofaBolt.startServer(
          processor(ECHO, (biz, request) -> new Reply("idle:" + request.text())),
          processor(BLOCKING, (biz, request) -> {
            entered.add(request.text());
            release.await(TIMEOUT_MS, TimeUnit.MILLISECONDS);
            return new Reply("late:" + request.text());
          }));
    } finally {
      if (previous == null) {
        System.clearProperty(Configs.TCP_SERVER_IDLE);
      } else {
        System.setProperty(Configs.TCP_SERVER_IDLE, previous);
      }
    }
    InetSocketAddress remote = new InetSocketAddress("127.0.0.1", idle.port());
    // one client sends a heartbeat after 100 ms without reading; the other sends none
    try (BoltClient beating = BoltClient.builder().protocol(format)
            .heartbeat(Duration.ofMillis(100), Duration.ofMillis(3000), 3).build();
        BoltClient silent = BoltClient.builder().protocol(format)
            .heartbeat(Duration.ZERO, Duration.ofSeconds(1), 3).build()) {
      BoltChannel beatingChannel = beating.channel(remote);
      assertThat(string(beatingChannel.invokeSync(ECHO, bytes("hello"), CallOptions.DEFAULT))).isEqualTo("idle:hello");
      Connection beatingConnection = beating.connections(remote).get(0);

      // SOFABolt closes the silent connection after 1.5 s idle although a call waits on it: the call fails
      // with CONNECTION_CLOSED then, not at its 30 s timeout
      BoltChannel silentChannel = silent.channel(remote);
      long start = System.nanoTime();
      CompletableFuture<byte[]> pending = silentChannel.invokeFuture(BLOCKING, bytes("pending"),
          CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(30)));
      assertThat(entered.poll(TIMEOUT_MS, TimeUnit.MILLISECONDS)).isEqualTo("pending");
      assertThatThrownBy(() -> pending.get(TIMEOUT_MS + 2_000, TimeUnit.MILLISECONDS))
          .cause()
          .isInstanceOfSatisfying(BoltException.class,
              e -> assertThat(e.status()).isEqualTo(ResponseStatus.CONNECTION_CLOSED));
      assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isBetween(1_000L, 10_000L);

      // over the same idle period the heartbeating connection stayed open
      assertThat(beatingConnection.isActive()).isTrue();
      assertThat(beating.connections(remote)).containsExactly(beatingConnection);
      assertThat(string(beatingChannel.invokeSync(ECHO, bytes("still"), CallOptions.DEFAULT))).isEqualTo("idle:still");
      assertThat(beating.connections(remote)).containsExactly(beatingConnection);

      // the silent client's pool makes a new connection for its next call
      assertThat(string(silentChannel.invokeSync(ECHO, bytes("again"), CallOptions.DEFAULT))).isEqualTo("idle:again");
    } finally {
      release.countDown();
      idle.shutdown();
    }
  }

  @ParameterizedTest
  @EnumSource(WireProtocol.class)
  void ourHeartbeatsAreAckedBySofaBolt(WireProtocol format) throws Exception {
    // a heartbeat after 100 ms without reading, 3 s to answer it, and one miss closes the connection. A
    // heartbeat goes out only once the previous one was acked or missed, so N heartbeats at SOFABolt on
    // a connection that is still the same, still open one mean N - 1 acks
    try (BoltClient client = BoltClient.builder().protocol(format)
        .heartbeat(Duration.ofMillis(100), Duration.ofMillis(3000), 1).build()) {
      BoltChannel channel = client.channel(address());
      assertThat(string(channel.invokeSync(ECHO, bytes("before"), CallOptions.DEFAULT))).isEqualTo("sofa:before");
      InetSocketAddress remote = new InetSocketAddress("127.0.0.1", server.port());
      List<Connection> connections = client.connections(remote);
      assertThat(connections).hasSize(1);
      Connection connection = connections.get(0);
      SofaBolt.HeartbeatCounter counter = SofaBolt.heartbeats();
      int before = counter.heartbeatsReceivedFrom(connection.localAddress());

      // at least 10 heartbeats reach SOFABolt (≥ 10 intervals), and the connection stays the same one
      await().atMost(Duration.ofMillis(TIMEOUT_MS))
          .until(() -> counter.heartbeatsReceivedFrom(connection.localAddress()) >= before + 10);
      assertThat(connection.isActive()).isTrue();
      assertThat(client.connections(remote)).containsExactly(connection);
      assertThat(string(channel.invokeSync(ECHO, bytes("after"), CallOptions.DEFAULT))).isEqualTo("sofa:after");
      assertThat(client.connections(remote)).containsExactly(connection);
    }
  }
}
