package io.boltgen.runtime;

import static io.boltgen.runtime.EchoService.ECHO;
import static io.boltgen.runtime.EchoService.FAIL;
import static io.boltgen.runtime.EchoService.SLOW;
import static io.boltgen.runtime.EchoService.bytes;
import static io.boltgen.runtime.EchoService.string;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.boltgen.annotation.BoltCallback;
import io.boltgen.runtime.codec.RawBytesMarshaller;
import io.boltgen.testing.Closer;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What happens when things go wrong: closed connections, restarts, bad frames, full executors, late requests. */
class FaultToleranceTest {

  private final EchoService echo = new EchoService();
  private final Closer closer = new Closer();
  private BoltServer server;
  private BoltClient client;

  @BeforeEach
  void start() {
    server = closer.track(BoltServer.builder().bind("127.0.0.1", 0).maxFrameLength(64 * 1024)
        .service(echo.definition()).build().start());
    client = closer.track(BoltClient.builder().build());
  }

  @AfterEach
  void stop() throws Exception {
    echo.release.countDown();
    closer.close();
  }

  private BoltChannel channel() {
    return client.channel("127.0.0.1:" + server.port());
  }

  private static ResponseStatus statusOf(Throwable t) {
    Throwable cause = t instanceof ExecutionException || t instanceof java.util.concurrent.CompletionException
        ? t.getCause() : t;
    assertThat(cause).isInstanceOf(BoltException.class);
    return ((BoltException) cause).status();
  }

  @Test
  void aPeersErrorTextReachesTheMessageEscapedAndCutAndStaysWholeInRemoteMessage() {
    String sent = "line one\nline two\u001b[31m" + "x".repeat(500);
    assertThatThrownBy(() -> channel().invokeSync(FAIL, bytes(sent), CallOptions.DEFAULT)).isInstanceOfSatisfying(
        BoltException.class, e -> {
          assertThat(e.remoteMessage()).isEqualTo("boom: " + sent);
          assertThat(e.getMessage()).contains("boom: line one\\u000aline two\\u001b[31m")
              .doesNotContain("\n", "\u001b").contains("more chars)");
        });
  }

  @Test
  void whenTheServerDropsTheConnectionEveryPendingCallFailsAtOnce() throws Exception {
    echo.release = new CountDownLatch(1);
    CallOptions patient = CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(60));
    List<CompletableFuture<byte[]>> calls = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      calls.add(channel().invokeFuture(SLOW, bytes("slow-" + i), patient));
    }
    await().atMost(Duration.ofSeconds(10)).until(() -> echo.slowStarted.get() > 0);
    long start = System.nanoTime();
    server.connections().forEach(Connection::close);
    CompletableFuture.allOf(calls.toArray(new CompletableFuture<?>[0])).handle((v, e) -> null)
        .get(10, TimeUnit.SECONDS);
    assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(10_000);
    for (CompletableFuture<byte[]> call : calls) {
      assertThat(call).isCompletedExceptionally();
      assertThatThrownBy(call::get).satisfies(e -> assertThat(statusOf(e)).isEqualTo(ResponseStatus.CONNECTION_CLOSED));
    }
  }

  @Test
  void afterTheServerRestartsOnTheSamePortThePoolReconnectsByItself() {
    int port = server.port();
    assertThat(string(channel().invokeSync(ECHO, bytes("before"), CallOptions.DEFAULT))).isEqualTo("before");
    InetSocketAddress address = new InetSocketAddress("127.0.0.1", port);
    assertThat(client.connections(address)).hasSize(1);

    server.close();
    await().atMost(Duration.ofSeconds(10)).until(() -> client.connections(address).isEmpty());
    assertThatThrownBy(() -> channel().invokeSync(ECHO, bytes("while down"), CallOptions.DEFAULT))
        .isInstanceOfSatisfying(BoltException.class, e -> assertThat(e.status())
            .isIn(ResponseStatus.ERROR_COMM, ResponseStatus.CONNECTION_CLOSED));

    BoltServer restarted = closer.track(BoltServer.builder().bind("127.0.0.1", port).service(echo.definition()).build().start());
    // the pool's background reconnect finds the new server without any call asking for it
    // (the client's side is up once connected, the server's once it accepted: both are waited for)
    await().atMost(Duration.ofSeconds(15)).until(() -> client.connections(address).size() == 1
        && restarted.connections().size() == 1);
    assertThat(string(channel().invokeSync(ECHO, bytes("after"), CallOptions.DEFAULT))).isEqualTo("after");
  }

  @Test
  void tenThousandConcurrentCallsToASlowHandlerEachCompleteExactlyOnce() throws Exception {
    int calls = 10_000;
    java.util.concurrent.ScheduledExecutorService delays = java.util.concurrent.Executors.newScheduledThreadPool(2);
    closer.track(delays::shutdownNow);
    MethodDescriptor<byte[], byte[]> delayed = EchoService.method("delayed", 9, io.boltgen.runtime.MethodType.REQUEST_RESPONSE);
    BoltServer slow = closer.track(BoltServer.builder().bind("127.0.0.1", 0)
        .service(io.boltgen.runtime.ServiceDefinition.builder("test.Echo", "1.0")
            .method(delayed, (request, call) -> {
              CompletableFuture<byte[]> later = new CompletableFuture<>();
              later.completeAsync(() -> request, CompletableFuture.delayedExecutor(50, TimeUnit.MILLISECONDS, delays));
              call.respondWith(later);
            }).build())
        .build().start());
    BoltClient many = closer.track(BoltClient.builder().connectionsPerAddress(2).build());
    BoltChannel channel = many.channel("127.0.0.1:" + slow.port());
    java.util.concurrent.atomic.AtomicIntegerArray outcomes = new java.util.concurrent.atomic.AtomicIntegerArray(calls);
    java.util.concurrent.atomic.AtomicInteger total = new java.util.concurrent.atomic.AtomicInteger();
    java.util.concurrent.ConcurrentLinkedQueue<String> wrong = new java.util.concurrent.ConcurrentLinkedQueue<>();
    CallOptions options = CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(60));
    for (int i = 0; i < calls; i++) {
      int index = i;
      channel.invokeCallback(delayed, bytes(Integer.toString(i)), options, new BoltCallback<byte[]>() {
        @Override
        public void onResponse(byte[] result) {
          if (!string(result).equals(Integer.toString(index))) {
            wrong.add(index + " got " + string(result));
          }
          outcomes.incrementAndGet(index);
          total.incrementAndGet();
        }

        @Override
        public void onError(Throwable error) {
          wrong.add(index + " failed: " + error);
          outcomes.incrementAndGet(index);
          total.incrementAndGet();
        }
      });
    }
    await().atMost(Duration.ofSeconds(60)).until(() -> total.get() >= calls);
    assertThat(wrong).isEmpty();
    for (int i = 0; i < calls; i++) {
      assertThat(outcomes.get(i)).as("completions of call %d", i).isEqualTo(1);
    }
    assertThat(total.get()).isEqualTo(calls);
  }

  private static void assertClosedByPeer(Socket socket) throws Exception {
    socket.setSoTimeout(10_000);
    InputStream in = socket.getInputStream();
    assertThat(in.read()).as("the server closes the connection").isEqualTo(-1);
  }

  @Test
  void aCorruptCrcClosesOnlyTheConnectionThatSentIt() throws Exception {
    assertThat(string(channel().invokeSync(ECHO, bytes("first"), CallOptions.DEFAULT))).isEqualTo("first");
    try (Socket raw = new Socket("127.0.0.1", server.port())) {
      OutputStream out = raw.getOutputStream();
      byte[] frame = io.boltgen.runtime.internal.CaptureBytes.v2CrcRequest();
      frame[frame.length - 1] ^= 1;
      out.write(frame);
      out.flush();
      assertClosedByPeer(raw);
    }
    assertThat(string(channel().invokeSync(ECHO, bytes("still fine"), CallOptions.DEFAULT))).isEqualTo("still fine");
  }

  @Test
  void anOversizeFrameClosesOnlyTheConnectionThatSentIt() throws Exception {
    assertThat(string(channel().invokeSync(ECHO, bytes("first"), CallOptions.DEFAULT))).isEqualTo("first");
    try (Socket raw = new Socket("127.0.0.1", server.port())) {
      OutputStream out = raw.getOutputStream();
      // a V1 request header announcing 1 MiB of content to a server that accepts 64 KiB
      out.write(new byte[] {1, 1, 0, 1, 1, 0, 0, 0, 2, 1, 0, 0, 1, (byte) 0xf4, 0, 0, 0, 0, 0, 0x10, 0, 0});
      out.flush();
      assertClosedByPeer(raw);
    }
    assertThat(string(channel().invokeSync(ECHO, bytes("still fine"), CallOptions.DEFAULT))).isEqualTo("still fine");

    // our own client sending too much: its connection closes, the call fails fast, the next one reconnects
    BoltClient other = closer.track(BoltClient.builder().build());
    BoltChannel otherChannel = other.channel("127.0.0.1:" + server.port());
    assertThatThrownBy(() -> otherChannel.invokeSync(ECHO, new byte[100_000],
        CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(30))))
        .isInstanceOfSatisfying(BoltException.class, e -> assertThat(e.status()).isEqualTo(ResponseStatus.CONNECTION_CLOSED));
    await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
        assertThat(string(otherChannel.invokeSync(ECHO, bytes("small"), CallOptions.DEFAULT))).isEqualTo("small"));
    assertThat(string(channel().invokeSync(ECHO, bytes("unaffected"), CallOptions.DEFAULT))).isEqualTo("unaffected");
  }

  @Test
  void aFullExecutorAnswersServerBusyAtOnce() throws Exception {
    ThreadPoolExecutor tiny = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(1));
    closer.track(tiny::shutdownNow);
    EchoService busy = new EchoService();
    busy.release = new CountDownLatch(1);
    BoltServer small = closer.track(BoltServer.builder().bind("127.0.0.1", 0).executor(tiny).service(busy.definition()).build().start());
    BoltChannel channel = client.channel("127.0.0.1:" + small.port());
    CompletableFuture<byte[]> running = channel.invokeFuture(SLOW, bytes("running"), CallOptions.DEFAULT);
    await().atMost(Duration.ofSeconds(10)).until(() -> busy.slowStarted.get() == 1);
    CompletableFuture<byte[]> queued = channel.invokeFuture(SLOW, bytes("queued"), CallOptions.DEFAULT);
    await().atMost(Duration.ofSeconds(10)).until(() -> tiny.getQueue().size() == 1);
    long start = System.nanoTime();
    assertThatThrownBy(() -> channel.invokeSync(ECHO, bytes("refused"), CallOptions.DEFAULT))
        .isInstanceOfSatisfying(BoltException.class, e -> {
          assertThat(e.status()).isEqualTo(ResponseStatus.SERVER_THREADPOOL_BUSY);
          assertThat(e.remoteMessage()).contains("full");
        });
    assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(3_000);
    busy.release.countDown();
    assertThat(string(running.get(10, TimeUnit.SECONDS))).isEqualTo("running");
    assertThat(string(queued.get(10, TimeUnit.SECONDS))).isEqualTo("queued");
  }

  @Test
  void aRequestThatWaitedPastItsCallersTimeoutIsDroppedUnrun() throws Exception {
    ThreadPoolExecutor single = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(10));
    closer.track(single::shutdownNow);
    EchoService late = new EchoService();
    late.release = new CountDownLatch(1);
    BoltServer server1 = closer.track(BoltServer.builder().bind("127.0.0.1", 0).executor(single).service(late.definition()).build().start());
    BoltChannel channel = client.channel("127.0.0.1:" + server1.port());
    CompletableFuture<byte[]> blocker = channel.invokeFuture(SLOW, bytes("blocker"), CallOptions.DEFAULT);
    await().atMost(Duration.ofSeconds(10)).until(() -> late.slowStarted.get() == 1);
    CompletableFuture<byte[]> doomed = channel.invokeFuture(ECHO, bytes("doomed"), CallOptions.DEFAULT.withTimeoutMillis(200));
    assertThatThrownBy(() -> doomed.get(10, TimeUnit.SECONDS))
        .satisfies(e -> assertThat(statusOf(e)).isEqualTo(ResponseStatus.TIMEOUT));
    late.release.countDown();
    assertThat(string(blocker.get(10, TimeUnit.SECONDS))).isEqualTo("blocker");
    // the single worker ran the queue in order, so by now the doomed request was dropped, not run
    assertThat(string(channel.invokeSync(ECHO, bytes("fresh"), CallOptions.DEFAULT))).isEqualTo("fresh");
    assertThat(late.echoed.get()).as("echo handler runs").isEqualTo(1);
  }

  @Test
  void anUnknownClassNameIsAnsweredNoProcessor() {
    MethodDescriptor<byte[], byte[]> nowhere = MethodDescriptor.newBuilder(EchoService.RAW, EchoService.RAW)
        .serviceName("test.Nowhere").methodName("nothing").build();
    assertThatThrownBy(() -> channel().invokeSync(nowhere, bytes("?"), CallOptions.DEFAULT))
        .isInstanceOfSatisfying(BoltException.class, e -> {
          assertThat(e.status()).isEqualTo(ResponseStatus.NO_PROCESSOR);
          assertThat(e.remoteMessage()).contains("test.Nowhere:1.0/nothing");
        });
  }

  @Test
  void aRequestInAnotherCodecIsAServerDeserialError() {
    MethodDescriptor<byte[], byte[]> hessianEcho = MethodDescriptor.newBuilder(
            RawBytesMarshaller.withCodecId((byte) 1), RawBytesMarshaller.withCodecId((byte) 1))
        .serviceName("test.Echo").methodName("echo").build();
    assertThatThrownBy(() -> channel().invokeSync(hessianEcho, bytes("?"), CallOptions.DEFAULT))
        .isInstanceOfSatisfying(BoltException.class, e -> {
          assertThat(e.status()).isEqualTo(ResponseStatus.SERVER_DESERIAL_EXCEPTION);
          assertThat(e.remoteMessage()).contains("codec 1 is not supported");
        });
  }
}
