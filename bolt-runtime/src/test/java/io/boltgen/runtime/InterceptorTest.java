package io.boltgen.runtime;

import static io.boltgen.runtime.EchoService.ECHO;
import static io.boltgen.runtime.EchoService.FAIL;
import static io.boltgen.runtime.EchoService.SINK;
import static io.boltgen.runtime.EchoService.SLOW;
import static io.boltgen.runtime.EchoService.bytes;
import static io.boltgen.runtime.EchoService.string;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.boltgen.annotation.BoltCallback;
import io.boltgen.testing.Closer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Interceptors on both sides of real loopback calls: their order, headers travelling from one side's
 * interceptor to the other's and to the handler, refusals with a status on either side, every call style,
 * the outcome each listener is told, and calls back over a server's connection (duplex).
 */
class InterceptorTest {

  private static final MethodDescriptor<byte[], byte[]> HEADER = EchoService.method("header", 10,
      MethodType.REQUEST_RESPONSE);

  private final Closer closer = new Closer();
  private final EchoService echo = new EchoService();
  private final List<String> events = new CopyOnWriteArrayList<>();

  @AfterEach
  void close() throws Exception {
    echo.release.countDown();
    closer.close();
  }

  /** The echo service, plus a method answering with the request header its argument names. */
  private ServiceDefinition services() {
    return ServiceDefinition.builder("test.Echo", "1.0")
        .method(ECHO, (request, call) -> {
          echo.echoed.incrementAndGet();
          call.respond(request);
        })
        .method(FAIL, (request, call) -> {
          throw new IllegalStateException("boom: " + string(request));
        })
        .method(SLOW, (request, call) -> {
          echo.release.await(10, TimeUnit.SECONDS);
          call.respond(request);
        })
        .method(SINK, (request, call) -> echo.sunk.add(string(request)))
        .method(HEADER, (request, call) -> call.respond(bytes(String.valueOf(
            ServerContext.current().headers().get(string(request))))))
        .build();
  }

  private ClientInterceptor client(String name) {
    return call -> {
      events.add(name + " " + call.method().methodName());
      call.header("x-" + name, name + "-value");
      return (status, error, nanos) -> events.add(name + " told " + status + (nanos > 0 ? "" : " (no time)"));
    };
  }

  private ServerInterceptor server(String name) {
    return call -> {
      events.add(name + " " + call.method().methodName() + " saw x-a=" + call.headers().get("x-a"));
      return (status, error, nanos) -> events.add(name + " told " + status);
    };
  }

  private BoltServer start(BoltServer.Builder builder) {
    return closer.track(builder.bind("127.0.0.1", 0).service(services()).build().start());
  }

  private BoltChannel channel(BoltClient client, BoltServer server) {
    return client.channel("127.0.0.1:" + server.port());
  }

  @Test
  void interceptorsRunInOrderHeadersTravelAndListenersAreToldInReverse() {
    BoltServer server = start(BoltServer.builder().serverInterceptor(server("s1")).serverInterceptor(server("s2")));
    BoltClient client = closer.track(BoltClient.builder().clientInterceptor(client("a")).clientInterceptor(client("b")).build());
    byte[] answer = channel(client, server).invokeSync(HEADER, bytes("x-b"), CallOptions.DEFAULT);
    assertThat(string(answer)).as("the handler sees a header an interceptor added").isEqualTo("b-value");
    await().atMost(Duration.ofSeconds(5)).until(() -> events.size() == 8);
    assertThat(events.subList(0, 2)).containsExactly("a header", "b header");
    assertThat(events).contains("s1 header saw x-a=a-value", "s2 header saw x-a=a-value");
    assertThat(events.indexOf("s1 header saw x-a=a-value")).isLessThan(events.indexOf("s2 header saw x-a=a-value"));
    assertThat(events.indexOf("s2 told SUCCESS")).isLessThan(events.indexOf("s1 told SUCCESS"));
    assertThat(events.indexOf("b told SUCCESS")).isLessThan(events.indexOf("a told SUCCESS"));
  }

  @Test
  void everyCallStyleIsInterceptedAndTold() throws Exception {
    BoltServer server = start(BoltServer.builder().serverInterceptor(server("s")));
    BoltClient client = closer.track(BoltClient.builder().clientInterceptor(client("c")).build());
    BoltChannel channel = channel(client, server);
    assertThat(channel.invokeFuture(ECHO, bytes("f"), CallOptions.DEFAULT).get(5, TimeUnit.SECONDS)).isEqualTo(bytes("f"));
    CompletableFuture<byte[]> got = new CompletableFuture<>();
    channel.invokeCallback(ECHO, bytes("cb"), CallOptions.DEFAULT, new BoltCallback<byte[]>() {
      @Override
      public void onResponse(byte[] result) {
        got.complete(result);
      }

      @Override
      public void onError(Throwable error) {
        got.completeExceptionally(error);
      }
    });
    assertThat(got.get(5, TimeUnit.SECONDS)).isEqualTo(bytes("cb"));
    channel.invokeOneway(SINK, bytes("one"), CallOptions.DEFAULT);
    assertThat(echo.sunk.poll(5, TimeUnit.SECONDS)).isEqualTo("one");
    await().atMost(Duration.ofSeconds(5)).until(() -> events.stream().filter(e -> e.endsWith("told SUCCESS")).count() == 6);
    assertThat(events).contains("c echo", "c sink", "s echo saw x-a=null", "s sink saw x-a=null");
  }

  @Test
  void listenersAreToldFailuresAndTimeoutsWithTheirStatus() {
    List<ResponseStatus> clientSide = new CopyOnWriteArrayList<>();
    List<ResponseStatus> serverSide = new CopyOnWriteArrayList<>();
    List<Throwable> serverErrors = new CopyOnWriteArrayList<>();
    BoltServer server = start(BoltServer.builder().serverInterceptor(call -> (status, error, nanos) -> {
      serverSide.add(status);
      serverErrors.add(error);
    }));
    BoltClient client = closer.track(BoltClient.builder()
        .clientInterceptor(call -> (status, error, nanos) -> clientSide.add(status)).build());
    BoltChannel channel = channel(client, server);
    assertThatThrownBy(() -> channel.invokeSync(FAIL, bytes("x"), CallOptions.DEFAULT))
        .isInstanceOf(BoltException.class);
    echo.release = new java.util.concurrent.CountDownLatch(1);
    assertThatThrownBy(() -> channel.invokeSync(SLOW, bytes("y"), CallOptions.DEFAULT.withTimeoutMillis(100)))
        .isInstanceOf(BoltException.class).satisfies(e -> assertThat(((BoltException) e).status())
            .isEqualTo(ResponseStatus.TIMEOUT));
    echo.release.countDown();
    await().atMost(Duration.ofSeconds(5)).until(() -> clientSide.size() == 2 && serverSide.size() == 2);
    assertThat(clientSide).containsExactly(ResponseStatus.SERVER_EXCEPTION, ResponseStatus.TIMEOUT);
    assertThat(serverSide).containsExactly(ResponseStatus.SERVER_EXCEPTION, ResponseStatus.SUCCESS);
    assertThat(serverErrors.get(0)).isInstanceOf(IllegalStateException.class).hasMessage("boom: x");
  }

  @Test
  void aClientInterceptorRefusesACallBeforeAnyByteIsSent() throws Exception {
    BoltServer server = start(BoltServer.builder());
    BoltException no = new BoltException(ResponseStatus.CLIENT_SEND_ERROR, "not on a weekend");
    BoltClient client = closer.track(BoltClient.builder().clientInterceptor(client("first")).clientInterceptor(call -> {
      throw no;
    }).clientInterceptor(client("never")).build());
    BoltChannel channel = channel(client, server);
    assertThatThrownBy(() -> channel.invokeSync(ECHO, bytes("x"), CallOptions.DEFAULT)).isSameAs(no);
    assertThatThrownBy(() -> channel.invokeFuture(ECHO, bytes("x"), CallOptions.DEFAULT).get(5, TimeUnit.SECONDS))
        .hasCause(no);
    assertThatThrownBy(() -> channel.invokeOneway(SINK, bytes("x"), CallOptions.DEFAULT)).isSameAs(no);
    assertThat(echo.echoed).hasValue(0);
    assertThat(echo.sunk).isEmpty();
    assertThat(events).containsExactly("first echo", "first told CLIENT_SEND_ERROR", "first echo",
        "first told CLIENT_SEND_ERROR", "first sink", "first told CLIENT_SEND_ERROR");
  }

  @Test
  void aServerInterceptorRefusesACallWithAStatusTheCallerSees() {
    List<ResponseStatus> told = new CopyOnWriteArrayList<>();
    BoltServer server = start(BoltServer.builder()
        .serverInterceptor(call -> (status, error, nanos) -> told.add(status))
        .serverInterceptor(call -> {
          if (!"yes".equals(call.headers().get("x-allowed"))) {
            throw new BoltException(ResponseStatus.SERVER_EXCEPTION, "not allowed: " + call.method().methodName());
          }
          return null;
        }));
    BoltClient client = closer.track(BoltClient.builder().build());
    BoltChannel channel = channel(client, server);
    assertThatThrownBy(() -> channel.invokeSync(ECHO, bytes("x"), CallOptions.DEFAULT))
        .isInstanceOf(BoltException.class)
        .satisfies(e -> assertThat(((BoltException) e).status()).isEqualTo(ResponseStatus.SERVER_EXCEPTION))
        .hasMessageContaining("not allowed: echo");
    assertThat(echo.echoed).as("the handler did not run").hasValue(0);
    assertThat(channel.invokeSync(ECHO, bytes("ok"), CallOptions.DEFAULT.withHeader("x-allowed", "yes")))
        .isEqualTo(bytes("ok"));
    await().atMost(Duration.ofSeconds(5)).until(() -> told.size() == 2);
    assertThat(told).containsExactly(ResponseStatus.SERVER_EXCEPTION, ResponseStatus.SUCCESS);
  }

  @Test
  void aServerInterceptorThatFailsRefusesTheCallAndTheListenersBeforeItAreTold() {
    List<String> told = new CopyOnWriteArrayList<>();
    BoltServer server = start(BoltServer.builder()
        .serverInterceptor(call -> new ServerInterceptor.Listener() {
          @Override
          public void onHandlerReturned() {
            told.add("returned on " + Thread.currentThread().getName().startsWith("boltgen-worker"));
          }

          @Override
          public void onComplete(ResponseStatus status, Throwable error, long nanos) {
            told.add("told " + status);
          }
        })
        .serverInterceptor(call -> {
          throw new IllegalStateException("interceptor bug");
        }));
    BoltClient client = closer.track(BoltClient.builder().build());
    assertThatThrownBy(() -> channel(client, server).invokeSync(ECHO, bytes("x"), CallOptions.DEFAULT))
        .isInstanceOf(BoltException.class).hasMessageContaining("interceptor bug")
        .satisfies(e -> assertThat(((BoltException) e).status()).isEqualTo(ResponseStatus.SERVER_EXCEPTION));
    assertThat(echo.echoed).hasValue(0);
    await().atMost(Duration.ofSeconds(5)).until(() -> told.size() == 2);
    assertThat(told).containsExactlyInAnyOrder("told SERVER_EXCEPTION", "returned on true");
  }

  @Test
  void aListenerIsToldOnTheHandlersThreadWhenTheHandlerReturnsThoughItAnswersLater() throws Exception {
    MethodDescriptor<byte[], byte[]> later = EchoService.method("later", 13, MethodType.REQUEST_RESPONSE);
    CompletableFuture<byte[]> answer = new CompletableFuture<>();
    List<String> told = new CopyOnWriteArrayList<>();
    ThreadLocal<String> set = new ThreadLocal<>();
    BoltServer server = closer.track(BoltServer.builder().bind("127.0.0.1", 0)
        .service(ServiceDefinition.builder("test.Echo", "1.0").method(later, (request, call) -> {
          told.add("handler sees " + set.get());
          call.respondWith(answer);
        }).build())
        .serverInterceptor(call -> {
          set.set("the call");
          return new ServerInterceptor.Listener() {
            @Override
            public void onHandlerReturned() {
              told.add("returned, " + set.get());
              set.remove();
            }

            @Override
            public void onComplete(ResponseStatus status, Throwable error, long nanos) {
              told.add("answered " + status);
            }
          };
        })
        .build().start());
    BoltClient client = closer.track(BoltClient.builder().build());
    CompletableFuture<byte[]> pending = channel(client, server).invokeFuture(later, bytes("l"), CallOptions.DEFAULT);
    await().atMost(Duration.ofSeconds(5)).until(() -> told.size() == 2);
    assertThat(told).containsExactly("handler sees the call", "returned, the call");
    answer.complete(bytes("done"));
    assertThat(pending.get(5, TimeUnit.SECONDS)).isEqualTo(bytes("done"));
    await().atMost(Duration.ofSeconds(5)).until(() -> told.size() == 3);
    assertThat(told.get(2)).isEqualTo("answered SUCCESS");
  }

  /**
   * A client listener hears each message of a streamed answer as the caller reads it, and the call's end only after
   * the caller heard it: a call that completed while its caller had not read its messages yet tells them first.
   */
  @Test
  void aStreamsMessagesComeBeforeItsEndToClientListenersThoughTheCallerReadsLate() throws Exception {
    Numbers numbers = new Numbers();
    BoltServer server = closer.track(BoltServer.builder().bind("127.0.0.1", 0).service(numbers.definition())
        .build().start());
    List<String> heard = new CopyOnWriteArrayList<>();
    BoltClient client = closer.track(BoltClient.builder().clientInterceptor(call -> new ClientInterceptor.Listener() {
      @Override
      public void onMessageReceived() {
        heard.add("message");
      }

      @Override
      public void onComplete(ResponseStatus status, Throwable error, long nanos) {
        heard.add("end " + status);
      }
    }).build());
    ClientCall<byte[], byte[]> call = channel(client, server).newCall(Numbers.COUNT, CallOptions.DEFAULT);
    java.util.concurrent.CompletableFuture<Throwable> closed = new java.util.concurrent.CompletableFuture<>();
    call.start(new ClientCall.Listener<>() {
      @Override
      public void onMessage(byte[] message) {
        heard.add("read");
      }

      @Override
      public void onClose(Throwable error, java.util.Map<String, String> trailers) {
        closed.complete(error);
      }
    });
    call.sendMessage(Numbers.request(3, 8));
    call.halfClose();
    // the server sends its three messages and the end against the first credit: the call completes (it leaves its
    // connection's table) while the caller has read none yet
    await().atMost(Duration.ofSeconds(10)).until(() -> numbers.last != null && numbers.last.emitted.get() == 3
        && client.connections().stream().allMatch(c -> c.pendingCalls() == 0));
    assertThat(heard).isEmpty();
    call.request(3);
    assertThat(closed.get(10, TimeUnit.SECONDS)).isNull();
    assertThat(heard).containsExactly("message", "read", "message", "read", "message", "read", "end SUCCESS");
  }

  @Test
  void aListenerThatThrowsDoesNotHurtTheCallOrTheOtherListeners() {
    BoltServer server = start(BoltServer.builder());
    BoltClient client = closer.track(BoltClient.builder().clientInterceptor(client("kept"))
        .clientInterceptor(call -> (status, error, nanos) -> {
          throw new IllegalStateException("listener bug");
        }).build());
    assertThat(channel(client, server).invokeSync(ECHO, bytes("x"), CallOptions.DEFAULT)).isEqualTo(bytes("x"));
    await().atMost(Duration.ofSeconds(5)).until(() -> events.contains("kept told SUCCESS"));
  }

  @Test
  void callsBackOverAServersConnectionPassTheServersClientInterceptorsAndTheClientsServerInterceptors()
      throws Exception {
    MethodDescriptor<byte[], byte[]> back = EchoService.method("back", 11, MethodType.REQUEST_RESPONSE);
    MethodDescriptor<byte[], byte[]> ping = EchoService.method("ping", 12, MethodType.REQUEST_RESPONSE);
    BoltServer server = closer.track(BoltServer.builder().bind("127.0.0.1", 0).clientInterceptor(client("server-out"))
        .service(ServiceDefinition.builder("test.Echo", "1.0").method(ping, (request, call) -> call.respond(
            ServerContext.current().connection().channel().invokeSync(back, request, CallOptions.DEFAULT))).build())
        .build().start());
    BoltClient client = closer.track(BoltClient.builder().serverInterceptor(server("client-in"))
        .service(ServiceDefinition.builder("test.Echo", "1.0").method(back, (request, call) -> call.respond(
            bytes("back " + ServerContext.current().headers().get("x-server-out")))).build())
        .build());
    assertThat(string(channel(client, server).invokeSync(ping, bytes("p"), CallOptions.DEFAULT)))
        .isEqualTo("back server-out-value");
    await().atMost(Duration.ofSeconds(5)).until(() -> events.contains("server-out told SUCCESS"));
    assertThat(events).contains("server-out back", "client-in back saw x-a=null", "client-in told SUCCESS");
  }

  // ---- docs/runtime.md, "Interceptors": its example, as written

  private final List<String> latency = new CopyOnWriteArrayList<>();
  private final Latency latencyRecorder = (method, status, nanos) -> latency.add(method + " " + status);

  private interface Latency {
    void record(String method, ResponseStatus status, long nanos);
  }

  private String tenant() {
    return "acme";
  }

  private static boolean allowed(String tenant, MethodDescriptor<?, ?> method) {
    return "acme".equals(tenant) && method.methodName().equals("echo");
  }

  @Test
  void theRuntimeDocsExampleRunsAsWritten() throws Exception {
    List<String> doc = java.nio.file.Files.readAllLines(java.nio.file.Path.of("..", "docs", "runtime.md"));
    int from = doc.indexOf("## Interceptors");
    List<String> code = new java.util.ArrayList<>();
    boolean in = false;
    for (String line : doc.subList(from, doc.size())) {
      if (line.equals("```java")) {
        in = true;
      } else if (line.equals("```") && in) {
        break;
      } else if (in) {
        code.add(line.replaceAll("\\s*//.*$", "").strip());
      }
    }
    List<String> here = java.nio.file.Files.readAllLines(
        java.nio.file.Path.of("src/test/java/io/boltgen/runtime/InterceptorTest.java")).stream()
        .map(l -> l.replaceAll("\\s*//.*$", "").strip()).toList();
    assertThat(code).isNotEmpty();
    assertThat(here).containsAll(code.stream().filter(l -> !l.isEmpty()).toList());

    Latency latency = latencyRecorder;
    ServiceDefinition service = services();
    BoltClient client = BoltClient.builder()
        .clientInterceptor(call -> {
          call.header("x-tenant", tenant());
          return (status, error, nanos) -> latency.record(call.method().wireName(), status, nanos);
        })
        .build();
    BoltServer server = BoltServer.builder()
        .bind("127.0.0.1", 0)
        .service(service)
        .serverInterceptor(call -> {
          if (!allowed(call.headers().get("x-tenant"), call.method())) {
            throw new BoltException(ResponseStatus.SERVER_EXCEPTION, "tenant not allowed");
          }
          return null;
        })
        .build();
    closer.track(client);
    closer.track(server.start());
    assertThat(channel(client, server).invokeSync(ECHO, bytes("hi"), CallOptions.DEFAULT)).isEqualTo(bytes("hi"));
    assertThatThrownBy(() -> channel(client, server).invokeSync(FAIL, bytes("x"), CallOptions.DEFAULT))
        .hasMessageContaining("tenant not allowed");
    await().atMost(Duration.ofSeconds(5)).until(() -> this.latency.size() == 2);
    assertThat(this.latency).containsExactly("test.Echo:1.0/echo SUCCESS", "test.Echo:1.0/fail SERVER_EXCEPTION");
  }
}
