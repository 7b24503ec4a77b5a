package io.boltgen.registry.etcd;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpResponse.BodySubscriber;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.function.Consumer;

/** The two ways replies are read: whole and bounded, or as a bounded stream of lines. */
final class BodyReaders {

  private BodyReaders() {}

  /** A reply longer than its bound: refused whole, not a failure of the endpoint. */
  static final class TooLarge extends IOException {
    private static final long serialVersionUID = 1L;

    TooLarge(String message) {
      super(message);
    }
  }

  /** A whole reply of at most {@code limit} bytes; a longer one is cut off and fails with {@link TooLarge}. */
  static BodySubscriber<byte[]> bounded(int limit) {
    return new Bounded(limit);
  }

  private static final class Bounded implements BodySubscriber<byte[]> {
    private final int limit;
    private final CompletableFuture<byte[]> body = new CompletableFuture<>();
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private Flow.Subscription subscription;

    Bounded(int limit) {
      this.limit = limit;
    }

    @Override
    public CompletionStage<byte[]> getBody() {
      return body;
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
      subscription = s;
      s.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(List<ByteBuffer> buffers) {
      if (body.isDone()) {
        return;
      }
      for (ByteBuffer buffer : buffers) {
        if (bytes.size() + (long) buffer.remaining() > limit) {
          subscription.cancel();
          body.completeExceptionally(new TooLarge("etcd's reply is larger than " + limit + " bytes"));
          return;
        }
        byte[] chunk = new byte[buffer.remaining()];
        buffer.get(chunk);
        bytes.write(chunk, 0, chunk.length);
      }
    }

    @Override
    public void onError(Throwable error) {
      body.completeExceptionally(error);
    }

    @Override
    public void onComplete() {
      body.complete(bytes.toByteArray());
    }
  }

  /**
   * A streaming reply read line by line (UTF-8, blank lines skipped), each line at most {@code limit} bytes:
   * {@code onLine} hears every line in order, then {@code onEnd} once with null (the reply ended) or why it
   * broke. Nothing is heard after {@link Lines#cancel}.
   */
  static Lines lines(int limit, Consumer<String> onLine, Consumer<Throwable> onEnd) {
    return new Lines(limit, onLine, onEnd);
  }

  /** See {@link #lines}. */
  static final class Lines implements BodySubscriber<Void> {
    private final int limit;
    private final Consumer<String> onLine;
    private final Consumer<Throwable> onEnd;
    private final CompletableFuture<Void> body = new CompletableFuture<>();
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();
    @GuardedBy("this")
    private Flow.Subscription subscription;
    @GuardedBy("this")
    private boolean done;

    private Lines(int limit, Consumer<String> onLine, Consumer<Throwable> onEnd) {
      this.limit = limit;
      this.onLine = onLine;
      this.onEnd = onEnd;
    }

    @Override
    public CompletionStage<Void> getBody() {
      return body;
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
      synchronized (this) {
        subscription = s;
        if (done) {
          s.cancel();
          return;
        }
        s.request(1);
      }
    }

    @Override
    public void onNext(List<ByteBuffer> buffers) {
      for (ByteBuffer buffer : buffers) {
        while (buffer.hasRemaining()) {
          byte b = buffer.get();
          if (b == '\n') {
            emit();
          } else if (line.size() >= limit) {
            end(new TooLarge("a line of etcd's streaming reply is longer than " + limit + " bytes"), true);
            return;
          } else {
            line.write(b);
          }
        }
      }
      synchronized (this) {
        if (!done) {
          subscription.request(1);
        }
      }
    }

    private void emit() {
      String text = line.toString(StandardCharsets.UTF_8);
      line.reset();
      if (!text.isBlank()) {
        synchronized (this) {
          if (done) {
            return;
          }
        }
        onLine.accept(text);
      }
    }

    @Override
    public void onError(Throwable error) {
      end(error, false);
    }

    @Override
    public void onComplete() {
      emit();
      end(null, false);
    }

    /** Stops reading; nothing more is heard. Idempotent, any thread. */
    void cancel() {
      Flow.Subscription s;
      synchronized (this) {
        if (done) {
          return;
        }
        done = true;
        s = subscription;
      }
      if (s != null) {
        s.cancel();
      }
      body.complete(null);
    }

    private void end(Throwable error, boolean cancelSubscription) {
      Flow.Subscription s;
      synchronized (this) {
        if (done) {
          return;
        }
        done = true;
        s = subscription;
      }
      if (cancelSubscription && s != null) {
        s.cancel();
      }
      body.complete(null);
      onEnd.accept(error);
    }
  }
}
