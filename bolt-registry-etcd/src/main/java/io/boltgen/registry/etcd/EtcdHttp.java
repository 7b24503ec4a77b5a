package io.boltgen.registry.etcd;

import io.boltgen.runtime.support.RateLimitedLog;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodySubscribers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

/**
 * etcd's v3 HTTP/JSON gateway on the JDK's {@link HttpClient}: JSON requests with a deadline, answered by
 * the current endpoint or, when it fails (no connection, a timeout, a 5xx answer), by the next ones in turn;
 * and streaming replies read line by line. Every reply is bounded ({@value #MAX_REPLY_BYTES} bytes, and so is
 * every line of a stream). Thread-safe.
 */
final class EtcdHttp {

  /** The largest reply read, and the longest line of a streaming reply: 16 MiB. */
  static final int MAX_REPLY_BYTES = 16 * 1024 * 1024;

  /** The largest error body read. */
  private static final int MAX_ERROR_BYTES = 64 * 1024;

  private final List<URI> endpoints;
  private final HttpClient http;
  private final AtomicInteger current = new AtomicInteger();
  private final Executor executor;
  private final IntConsumer onEndpointFailed;
  private final RateLimitedLog failover;

  /**
   * {@code executor} runs what follows a reply (the next attempt, completing the result); {@code
   * onEndpointFailed} hears the index of each endpoint a request gave up on.
   */
  EtcdHttp(List<URI> endpoints, HttpClient http, Executor executor, IntConsumer onEndpointFailed,
      RateLimitedLog failover) {
    this.endpoints = List.copyOf(endpoints);
    this.http = http;
    this.executor = executor;
    this.onEndpointFailed = onEndpointFailed;
    this.failover = failover;
  }

  List<URI> endpoints() {
    return endpoints;
  }

  /** The index of the endpoint requests go to first. */
  int current() {
    return current.get();
  }

  /**
   * Posts {@code body} to {@code path} and completes with the reply's JSON object, trying each endpoint at
   * most once before {@code deadline} ({@link System#nanoTime}). Fails with an {@link EtcdException} when
   * etcd refused the request, otherwise with an {@link IOException} saying which endpoints failed and why.
   */
  CompletableFuture<Map<String, Object>> post(String path, String body, long deadline) {
    Request request = new Request(path, body, deadline, new CompletableFuture<>());
    attempt(request, current.get(), 0, null);
    return request.result();
  }

  /** Like {@link #post} but to endpoint {@code index} only. */
  CompletableFuture<Map<String, Object>> postTo(int index, String path, String body, long deadline) {
    Request request = new Request(path, body, deadline, new CompletableFuture<>());
    attempt(request, index, endpoints.size() - 1, null);
    return request.result();
  }

  /** {@link #post}, waiting for the reply on the calling thread. */
  Map<String, Object> call(String path, String body, long deadline) throws IOException {
    CompletableFuture<Map<String, Object>> reply = post(path, body, deadline);
    try {
      // the attempts give up at the deadline; the margin only covers scheduling
      return reply.get(Math.max(0, deadline - System.nanoTime()) + TimeUnit.MILLISECONDS.toNanos(100),
          TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      reply.cancel(false);
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for etcd (" + path + ")");
    } catch (TimeoutException e) {
      reply.cancel(false);
      throw new IOException("etcd did not answer " + path + " in time");
    } catch (ExecutionException e) {
      throw asIoException(e.getCause());
    }
  }

  /** A request and its result, across the endpoints it is tried on. */
  private record Request(String path, String body, long deadline, CompletableFuture<Map<String, Object>> result) {}

  /** One try on endpoint {@code index}, then the next ones; the result always completes, whatever fails. */
  private void attempt(Request r, int index, int tried, String failures) {
    try {
      send(r, index, tried, failures);
    } catch (Throwable t) {
      r.result().completeExceptionally(new IOException("could not ask etcd " + r.path() + ": " + describe(t), t));
    }
  }

  @SuppressWarnings("FutureReturnValueIgnored") // the action completes r's result whatever fails
  private void send(Request r, int index, int tried, String failures) {
    long remaining = r.deadline() - System.nanoTime();
    if (tried >= endpoints.size() || remaining <= 0) {
      r.result().completeExceptionally(new IOException("no etcd endpoint answered " + r.path()
          + (tried >= endpoints.size() ? "" : " in time") + ": " + (failures == null ? "no time left" : failures)));
      return;
    }
    URI endpoint = endpoints.get(index);
    HttpRequest request = HttpRequest.newBuilder(endpoint.resolve(r.path()))
        .timeout(Duration.ofNanos(remaining))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(r.body(), StandardCharsets.UTF_8))
        .build();
    http.sendAsync(request, info -> BodyReaders.bounded(MAX_REPLY_BYTES))
        .orTimeout(remaining, TimeUnit.NANOSECONDS)
        .whenCompleteAsync((response, error) -> {
          try {
            settle(r, index, tried, failures, endpoint, response, error);
          } catch (Throwable t) {
            r.result().completeExceptionally(new IOException("could not read etcd's answer to " + r.path() + ": "
                + describe(t), t));
          }
        }, executor);
  }

  private void settle(Request r, int index, int tried, String failures, URI endpoint, HttpResponse<byte[]> response,
      Throwable error) {
    String path = r.path();
    CompletableFuture<Map<String, Object>> result = r.result();
    if (result.isDone()) {
      return;
    }
    String why;
    if (error == null && response.statusCode() == 200) {
      try {
        result.complete(EtcdJson.parseObject(new String(response.body(), StandardCharsets.UTF_8)));
      } catch (RuntimeException e) {
        result.completeExceptionally(new IOException("etcd at " + endpoint + " answered " + path
            + " with bad JSON: " + e.getMessage()));
      }
      return;
    } else if (error == null && response.statusCode() < 500) {
      result.completeExceptionally(EtcdException.of(response.statusCode(), response.body()));
      return;
    } else if (error == null) {
      why = endpoint + ": " + EtcdException.of(response.statusCode(), response.body()).getMessage();
    } else if (unwrap(error) instanceof BodyReaders.TooLarge) {
      result.completeExceptionally(new BodyReaders.TooLarge(endpoint + " answered " + path + ": "
          + unwrap(error).getMessage()));
      return;
    } else {
      why = endpoint + ": " + describe(error);
    }
    int next = (index + 1) % endpoints.size();
    endpointFailed(index, next, new IOException(why));
    attempt(r, next, tried + 1, failures == null ? why : failures + "; " + why);
  }

  private void endpointFailed(int index, int next, IOException why) {
    if (current.compareAndSet(index, next) && endpoints.size() > 1) {
      failover.warn("etcd endpoint {} failed ({}); moving to {}", endpoints.get(index),
          why.getMessage(), endpoints.get(next));
    }
    onEndpointFailed.accept(index);
  }

  /** Marks endpoint {@code index} as failed, as a request that gave up on it would. */
  void markFailed(int index, IOException why) {
    endpointFailed(index, (index + 1) % endpoints.size(), why);
  }

  /**
   * Opens a streaming request on the current endpoint: {@code onLine} hears each line of the reply in order,
   * then {@code onEnd} hears once how it ended (null: etcd closed it). Nothing is heard after
   * {@link Stream#cancel}. The reply's headers must arrive within {@code timeout}.
   */
  @SuppressWarnings("FutureReturnValueIgnored") // the action only hands the outcome to the stream's own ends
  Stream stream(String path, String body, Duration timeout, Consumer<String> onLine, Consumer<Throwable> onEnd) {
    int index = current.get();
    URI endpoint = endpoints.get(index);
    HttpRequest request = HttpRequest.newBuilder(endpoint.resolve(path))
        .timeout(timeout)
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
        .build();
    BodyReaders.Lines lines = BodyReaders.lines(MAX_REPLY_BYTES, onLine, onEnd);
    CompletableFuture<HttpResponse<Object>> sent = http.sendAsync(request, info -> info.statusCode() == 200
        ? BodySubscribers.mapping(lines, v -> (Object) null)
        : BodySubscribers.mapping(BodyReaders.bounded(MAX_ERROR_BYTES), bytes -> (Object) bytes));
    Stream stream = new Stream(index, lines, sent);
    sent.whenCompleteAsync((response, error) -> {
      if (error != null) {
        IOException why = new IOException(endpoint + ": " + describe(error));
        if (!stream.cancelled) {
          markFailed(index, why);
        }
        lines.onError(why);
      } else if (response.statusCode() != 200) {
        EtcdException refused = EtcdException.of(response.statusCode(), (byte[]) response.body());
        if (response.statusCode() >= 500 && !stream.cancelled) {
          markFailed(index, new IOException(refused.getMessage()));
        }
        lines.onError(refused);
      }
    }, executor);
    return stream;
  }

  /** A streaming request. */
  static final class Stream {
    private final int endpoint;
    private final BodyReaders.Lines lines;
    private final CompletableFuture<?> sent;
    private volatile boolean cancelled;

    private Stream(int endpoint, BodyReaders.Lines lines, CompletableFuture<?> sent) {
      this.endpoint = endpoint;
      this.lines = lines;
      this.sent = sent;
    }

    /** The index of the endpoint it runs on. */
    int endpoint() {
      return endpoint;
    }

    /** Stops it and closes its connection; its handlers hear nothing more. Idempotent, any thread. */
    void cancel() {
      cancelled = true;
      lines.cancel();
      sent.cancel(true);
    }
  }

  /** The failure inside the wrappers of futures. */
  static Throwable unwrap(Throwable error) {
    Throwable e = error;
    while ((e instanceof CompletionException || e instanceof ExecutionException) && e.getCause() != null) {
      e = e.getCause();
    }
    return e;
  }

  /** A short description of a failure: its type and message, the cause of a wrapper. */
  static String describe(Throwable error) {
    Throwable e = unwrap(error);
    if (e instanceof TimeoutException || e instanceof java.net.http.HttpTimeoutException) {
      return "no answer in time";
    }
    if (e instanceof java.net.ConnectException) {
      return "connection refused" + (e.getMessage() == null ? "" : " (" + e.getMessage() + ")");
    }
    String message = e.getMessage();
    return message == null ? e.getClass().getSimpleName() : e.getClass().getSimpleName() + ": " + message;
  }

  static IOException asIoException(Throwable error) {
    Throwable e = unwrap(error);
    return e instanceof IOException io ? io : new IOException(describe(e), e);
  }
}
