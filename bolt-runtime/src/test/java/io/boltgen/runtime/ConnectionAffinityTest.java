package io.boltgen.runtime;

import static io.boltgen.runtime.EchoService.ECHO;
import static io.boltgen.runtime.EchoService.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.boltgen.testing.Closer;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A pool of one connection per IO thread: a call made from an IO thread (here, from the callback of the call
 * before it) goes on that thread's own connection, so its answer is read by the thread that sent it.
 */
class ConnectionAffinityTest {

  private final Closer closer = new Closer();

  @AfterEach
  void stop() throws Exception {
    closer.close();
  }

  @Test
  void aCallMadeOnAnIoThreadStaysOnIt() throws Exception {
    BoltServer server = closer.track(BoltServer.builder().bind("127.0.0.1", 0).service(new EchoService().definition())
        .build().start());
    BoltClient client = closer.track(BoltClient.builder().connectionsPerAddress(BoltClient.ioThreads()).build());
    InetSocketAddress address = new InetSocketAddress("127.0.0.1", server.port());
    BoltChannel channel = client.channel(address);
    channel.invokeSync(ECHO, bytes("connect"), CallOptions.DEFAULT);
    // the first call goes on the first connection up; the others may still be connecting
    await().atMost(Duration.ofSeconds(10))
        .untilAsserted(() -> assertThat(client.connections(address)).hasSize(BoltClient.ioThreads()));

    List<String> mismatches = new ArrayList<>();
    java.util.concurrent.atomic.AtomicInteger checked = new java.util.concurrent.atomic.AtomicInteger();
    for (int i = 0; i < 50; i++) {
      CompletableFuture<Void> chained = channel.invokeFuture(ECHO, bytes("first"), CallOptions.DEFAULT)
          .thenCompose(first -> {
            Thread sender = Thread.currentThread(); // the IO thread that read the first answer (else main: done already)
            if (!sender.getName().startsWith("boltgen-io")) {
              return CompletableFuture.completedFuture(null);
            }
            checked.incrementAndGet();
            return channel.invokeFuture(ECHO, bytes("second"), CallOptions.DEFAULT).thenAccept(second -> {
              if (Thread.currentThread() != sender) {
                synchronized (mismatches) {
                  mismatches.add(sender.getName() + " -> " + Thread.currentThread().getName());
                }
              }
            });
          });
      chained.get(10, TimeUnit.SECONDS);
    }
    assertThat(checked.get()).as("second calls made on an IO thread").isPositive();
    assertThat(mismatches).as("calls whose answer was read by another thread than the one that sent them").isEmpty();
  }
}
