package io.boltgen.runtime;

import static io.boltgen.runtime.EchoService.bytes;
import static io.boltgen.runtime.EchoService.string;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.boltgen.annotation.BoltCallback;
import io.boltgen.testing.Closer;
import java.lang.invoke.MethodHandles;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Handlers and callbacks on virtual threads, and sync calls made from virtual threads: run on Java 21+ only
 * (tag {@code jdk21}: the JDK 25 run of the build), where the build pins virtual threads to two carriers with
 * no spare ones ({@code jdk.virtualThreadScheduler.parallelism} and {@code maxPoolSize} 2), so that a call
 * path that pinned its carrier while it waits would stall these tests instead of passing them slowly.
 */
@Tag("jdk21")
class VirtualThreadsTest {

  private static final String VIRTUAL = "java.lang.VirtualThread";

  private final Closer closer = new Closer();

  @AfterEach
  void close() throws Exception {
    closer.close();
  }

  @Test
  void handlersRunOnVirtualThreadsWithinTheServersBounds() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger started = new AtomicInteger();
    ConcurrentLinkedQueue<Thread> handlerThreads = new ConcurrentLinkedQueue<>();
    MethodDescriptor<byte[], byte[]> block = EchoService.method("block", 7, MethodType.REQUEST_RESPONSE);
    BoltServer server = closer.track(BoltServer.builder().bind("127.0.0.1", 0).threads(0, 4, 2).virtualThreads()
        .service(ServiceDefinition.builder("test.Echo", "1.0")
            .method(block, (request, call) -> {
              handlerThreads.add(Thread.currentThread());
              started.incrementAndGet();
              release.await(30, TimeUnit.SECONDS);
              call.respond(request);
            }).build())
        .build().start());
    BoltClient client = closer.track(BoltClient.builder().build());
    BoltChannel channel = client.channel("127.0.0.1:" + server.port());
    CallOptions patient = CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(30));
    List<CompletableFuture<byte[]>> calls = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      calls.add(channel.invokeFuture(block, bytes("call " + i), patient));
    }
    await().atMost(Duration.ofSeconds(10)).until(() -> started.get() == 4); // four run, two wait in the queue
    // one connection's requests are dispatched in order: this one finds four running and two queued
    assertThatThrownBy(() -> channel.invokeSync(block, bytes("one too many"), patient))
        .isInstanceOfSatisfying(BoltException.class,
            e -> assertThat(e.status()).isEqualTo(ResponseStatus.SERVER_THREADPOOL_BUSY));
    assertThat(started).hasValue(4);
    release.countDown();
    for (int i = 0; i < calls.size(); i++) {
      assertThat(string(calls.get(i).get(10, TimeUnit.SECONDS))).isEqualTo("call " + i);
    }
    assertThat(handlerThreads).hasSize(6).allSatisfy(thread -> {
      assertThat(thread.getClass().getName()).isEqualTo(VIRTUAL);
      assertThat(thread.getName()).startsWith("boltgen-worker-virtual-");
    });
  }

  @Test
  void callbacksRunOnVirtualThreads() throws Exception {
    EchoService echo = new EchoService();
    BoltServer server = closer.track(BoltServer.builder().bind("127.0.0.1", 0).service(echo.definition())
        .build().start());
    BoltClient client = closer.track(BoltClient.builder().virtualThreads().callbackThreads(2).build());
    BoltChannel channel = client.channel("127.0.0.1:" + server.port());
    LinkedBlockingQueue<Thread> callbackThreads = new LinkedBlockingQueue<>();
    channel.invokeCallback(EchoService.ECHO, bytes("callback"), CallOptions.DEFAULT, new BoltCallback<byte[]>() {
      @Override
      public void onResponse(byte[] result) {
        callbackThreads.add(Thread.currentThread());
      }

      @Override
      public void onError(Throwable error) {
        callbackThreads.add(Thread.currentThread());
      }
    });
    Thread thread = callbackThreads.poll(10, TimeUnit.SECONDS);
    assertThat(thread).isNotNull();
    assertThat(thread.getClass().getName()).isEqualTo(VIRTUAL);
    assertThat(thread.getName()).startsWith("boltgen-callback-virtual-");
  }

  /**
   * Ten thousand sync calls at once, each from a virtual thread of its own, on two carriers: the server holds
   * every answer until all ten thousand requests have arrived, so every caller is parked in its call at the
   * same time. With a lock held across the wait, or a carrier pinned, the callers beyond the second would
   * never send.
   */
  @Test
  void tenThousandSyncCallsFromVirtualThreadsOnTwoCarriers() throws Throwable {
    assertThat(System.getProperty("jdk.virtualThreadScheduler.parallelism")).as("carriers").isEqualTo("2");
    assertThat(System.getProperty("jdk.virtualThreadScheduler.maxPoolSize")).as("carriers at most").isEqualTo("2");
    int callers = 10_000;
    ConcurrentLinkedQueue<Runnable> held = new ConcurrentLinkedQueue<>();
    AtomicInteger arrived = new AtomicInteger();
    MethodDescriptor<byte[], byte[]> hold = EchoService.method("hold", 8, MethodType.REQUEST_RESPONSE);
    BoltServer server = closer.track(BoltServer.builder().bind("127.0.0.1", 0).maxRequestsPerConnection(callers)
        .service(ServiceDefinition.builder("test.Echo", "1.0")
            .method(hold, (request, call) -> { // on the IO thread: quick, never blocks
              held.add(() -> call.respond(request));
              if (arrived.incrementAndGet() == callers) {
                held.forEach(Runnable::run);
              }
            }).build(), Runnable::run)
        .build().start());
    BoltClient client = closer.track(BoltClient.builder().build());
    BoltChannel channel = client.channel("127.0.0.1:" + server.port());
    CallOptions patient = CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(60));
    ExecutorService virtualThreads = (ExecutorService) MethodHandles.publicLookup()
        .findStatic(Executors.class, "newVirtualThreadPerTaskExecutor",
            java.lang.invoke.MethodType.methodType(ExecutorService.class))
        .invoke();
    closer.track(virtualThreads::shutdownNow);
    List<Future<String>> answers = new ArrayList<>();
    for (int i = 0; i < callers; i++) {
      String request = "caller " + i;
      answers.add(virtualThreads.submit(() -> string(channel.invokeSync(hold, bytes(request), patient))));
    }
    for (int i = 0; i < callers; i++) {
      assertThat(answers.get(i).get(90, TimeUnit.SECONDS)).isEqualTo("caller " + i);
    }
    assertThat(arrived).hasValue(callers);
  }

  @Test
  void theServersOwnExecutorIsEitherVirtualOrGiven() {
    assertThatThrownBy(() -> BoltServer.builder().virtualThreads().executor(Runnable::run).build())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("not with executor");
    assertThatThrownBy(() -> BoltClient.builder().virtualThreads().callbackExecutor(Runnable::run).build())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("not with callbackExecutor");
  }
}
