package io.boltgen.registry.etcd;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.boltgen.testing.EtcdProcess;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A scripted stand-in for etcd's gateway on loopback, for replies a real etcd gives only by chance (a watch
 * cancelled for compaction between a range and its watch, an error or garbage mid-stream) or not at all. Range
 * replies are taken in turn (the last one repeats); each watch request plays the next script, line by line,
 * then holds the stream open until {@link #close}.
 */
final class FakeEtcd implements AutoCloseable {

  private final HttpServer server;
  private final BlockingQueue<String> ranges = new LinkedBlockingQueue<>();
  private final BlockingQueue<List<String>> watches = new LinkedBlockingQueue<>();
  private final Map<String, AtomicInteger> requests = new ConcurrentHashMap<>();
  private final Map<String, List<String>> bodies = new ConcurrentHashMap<>();
  private final Map<String, String> answers = new ConcurrentHashMap<>();
  private final Map<String, Long> delays = new ConcurrentHashMap<>();
  private final CountDownLatch closed = new CountDownLatch(1);
  private volatile String lastRange = "{\"header\":{\"revision\":\"1\"}}";
  private volatile int failWith;

  FakeEtcd() {
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.setExecutor(Executors.newCachedThreadPool(task -> {
      Thread thread = new Thread(task, "fake-etcd");
      thread.setDaemon(true);
      return thread;
    }));
    server.createContext("/", this::handle);
    server.start();
  }

  String endpoint() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** Answers every request with this HTTP status and a gateway error body (0: answer normally). */
  FakeEtcd failingWith(int status) {
    failWith = status;
    return this;
  }

  /** The next range reply: header revision, and the instances' addresses as keys and values under the prefix. */
  FakeEtcd range(String service, long revision, String... addresses) {
    StringBuilder kvs = new StringBuilder();
    for (String address : addresses) {
      kvs.append(kvs.length() == 0 ? "" : ",").append(kv(service, address));
    }
    ranges.add("{\"header\":{\"revision\":\"" + revision + "\"},\"kvs\":[" + kvs + "],\"count\":\"" + addresses.length
        + "\"}");
    return this;
  }

  /** Answers every request to {@code path} with {@code body} (200), after {@code delayMillis}. */
  FakeEtcd answer(String path, String body, long delayMillis) {
    answers.put(path, body);
    delays.put(path, delayMillis);
    return this;
  }

  /** The bodies of the requests to {@code path} so far. */
  List<String> bodies(String path) {
    return bodies.getOrDefault(path, List.of());
  }

  /** The next watch request's lines. */
  FakeEtcd watch(String... lines) {
    watches.add(List.of(lines));
    return this;
  }

  static String kv(String service, String address) {
    return "{\"key\":\"" + EtcdProcess.b64("/boltgen/services/" + service + "/" + address) + "\",\"value\":\""
        + EtcdProcess.b64("{\"address\":\"" + address + "\"}") + "\"}";
  }

  static final String CREATED = "{\"result\":{\"header\":{\"revision\":\"1\"},\"created\":true}}";

  int requests(String path) {
    return requests.computeIfAbsent(path, p -> new AtomicInteger()).get();
  }

  private void handle(HttpExchange exchange) throws IOException {
    String path = exchange.getRequestURI().getPath();
    requests.computeIfAbsent(path, p -> new AtomicInteger()).incrementAndGet();
    bodies.computeIfAbsent(path, p -> new java.util.concurrent.CopyOnWriteArrayList<>())
        .add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
    String answer = answers.get(path);
    if (answer != null) {
      try {
        Thread.sleep(delays.getOrDefault(path, 0L)); // a slow etcd, on the fake's own thread
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      reply(exchange, 200, answer);
      return;
    }
    if (failWith != 0) {
      reply(exchange, failWith, "{\"error\":\"etcdserver: no leader\",\"message\":\"etcdserver: no leader\",\"code\":14}");
      return;
    }
    switch (path) {
      case "/v3/kv/range":
        String next = ranges.poll();
        if (next != null) {
          lastRange = next;
        }
        reply(exchange, 200, lastRange);
        return;
      case "/v3/watch":
        List<String> script = watches.poll();
        exchange.sendResponseHeaders(200, 0);
        try (OutputStream out = exchange.getResponseBody()) {
          for (String line : script == null ? List.of(CREATED) : script) {
            out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
          }
          closed.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        } catch (IOException clientWentAway) {
          // the registry cancelled the stream
        }
        return;
      default:
        reply(exchange, 404, "{\"error\":\"not here\",\"message\":\"not here\",\"code\":5}");
    }
  }

  private static void reply(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  @Override
  public void close() {
    closed.countDown();
    server.stop(0);
  }
}
