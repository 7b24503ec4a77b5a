package io.boltgen.runtime.internal;

import io.boltgen.runtime.BoltChannel;
import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.Connection;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.support.RateLimitedLog;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.LoggerFactory;

/**
 * The connections of one client to one address: a fixed number of slots, each holding the future of
 * its connection. A slot is filled by whoever wins one compare-and-set, so concurrent first calls make
 * exactly as many connections as configured. Calls go round-robin to active, writable connections; when
 * none is up they wait (within their own timeout) for the next one to connect.
 *
 * <p>A slot whose connection closed, or whose attempt failed, is re-made in the background after an
 * exponential backoff (each wait up to 20% shorter at random). A connection the peer closed at once, without
 * answering anything on it, counts as a failed attempt. While a slot backs off after a failure, calls that
 * find no other connection fail at once with {@link ResponseStatus#ERROR_COMM} instead of hammering the
 * address.
 *
 * <p>Thread-safe.
 */
public final class ConnectionPool implements CallTarget {

  private static final RateLimitedLog connectFailures = RateLimitedLog.of(LoggerFactory.getLogger(ConnectionPool.class));
  private static final RateLimitedLog reconnectFailures =
      RateLimitedLog.of(LoggerFactory.getLogger(ConnectionPool.class));

  private final InetSocketAddress address;
  private final Connector connector;
  private final CallEnvironment env;
  private final ConnectionEvents events;
  private final boolean reconnect;
  private final long minBackoffNanos;
  private final long maxBackoffNanos;
  private final int size;
  private final AtomicReferenceArray<CompletableFuture<BoltConnection>> slots;
  private final AtomicIntegerArray failures;
  private final AtomicLongArray retryAtNanos;
  private final AtomicInteger next = new AtomicInteger();
  private final AtomicInteger attemptsStarted = new AtomicInteger();
  private final LongAdder sending = new LongAdder(); // sends in progress, which closeWhenIdle waits for
  private volatile boolean idleCloseWanted;
  private volatile boolean pinned;
  private final CallChannel channel;
  private volatile boolean closed;

  /**
   * A pool of {@code size} connections to {@code address}.
   *
   * @param reconnect whether to re-make lost connections in the background
   * @param minBackoffMillis the first backoff after a failure
   * @param maxBackoffMillis the longest backoff
   */
  public ConnectionPool(InetSocketAddress address, int size, Connector connector, ConnectionEvents events,
      CallEnvironment env, boolean reconnect, long minBackoffMillis, long maxBackoffMillis) {
    this.address = address;
    this.size = size;
    this.connector = connector;
    this.env = env;
    this.events = events;
    this.reconnect = reconnect;
    this.minBackoffNanos = TimeUnit.MILLISECONDS.toNanos(minBackoffMillis);
    this.maxBackoffNanos = TimeUnit.MILLISECONDS.toNanos(maxBackoffMillis);
    this.slots = new AtomicReferenceArray<>(size);
    this.failures = new AtomicIntegerArray(size);
    this.retryAtNanos = new AtomicLongArray(size);
    this.channel = new CallChannel(this, env);
  }

  /** The channel sending over this pool. */
  public BoltChannel channel() {
    return channel;
  }

  @Override
  public SocketAddress remoteAddress() {
    return address;
  }

  /**
   * The pool serves a plain {@code host:port} channel for the client's life: it is never closed while idle
   * (see {@link #closeWhenIdle()}), so its sends need not be counted.
   */
  public void pin() {
    pinned = true;
  }

  @Override
  public void send(PendingCall<?> call) {
    if (pinned) {
      sendNow(call);
      return;
    }
    sending.increment(); // a striped counter: uncontended, unlike one atomic shared by every caller
    try {
      sendNow(call);
    } finally {
      sending.decrement();
      if (idleCloseWanted && sending.sum() == 0) {
        closeWhenIdle(); // it waited for this send
      }
    }
  }

  @SuppressWarnings("FutureReturnValueIgnored") // the action settles the call on every path, a bug included
  private void sendNow(PendingCall<?> call) {
    if (idleCloseWanted) {
      // the instance left its cluster: refuse before anything is written, so that the call goes elsewhere
      call.fail(new BoltException(ResponseStatus.CLIENT_SEND_ERROR, "the connections to " + address
          + " are closing: the instance left its cluster", null, null, address, 0, null));
      return;
    }
    BoltConnection connection = pick();
    if (connection != null) {
      connection.send(call);
      return;
    }
    call.timeWhileWaiting(); // it waits for a connection, not in a call table
    int attemptsBefore = attemptsStarted.get();
    CompletableFuture<BoltConnection> connecting = connectAll();
    boolean fresh = attemptsStarted.get() != attemptsBefore;
    Thread caller = Thread.currentThread();
    connecting.whenComplete((c, error) -> {
      try {
        sendConnected(call, c, error, fresh && Thread.currentThread() == caller);
      } catch (Throwable e) {
        // a bug: nobody watches the future whenComplete returns, so the call would wait for its deadline unanswered
        call.fail(new BoltException(ResponseStatus.CLIENT_SEND_ERROR, "could not send " + call.method().toString()
            + " to " + address + ": " + e, null, null, address, 0, e));
      }
    });
  }

  /**
   * Sends {@code call}, which waited for a connection: over {@code c}, or fails it with the connect's {@code error}.
   * {@code failedAtOnce}: an attempt this call started failed before send returned.
   */
  private void sendConnected(PendingCall<?> call, BoltConnection c, Throwable error, boolean failedAtOnce) {
    if (call.isDone()) {
      return; // timed out while it waited for the connection
    }
    if (error == null) {
      c.send(call);
    } else if (failedAtOnce) {
      // failed before send returned (a refused loopback connect can): fail the call from another thread, as when
      // it fails later, so that it never counts as refused at once (only a pool backing off refuses at once)
      try {
        env.callbackExecutor().execute(() -> call.fail(connectError(error)));
      } catch (RejectedExecutionException e) {
        call.fail(connectError(error)); // the client is closing
      }
    } else {
      call.fail(connectError(error));
    }
  }

  /**
   * Starts every connection that is not up (respecting backoff) and returns a future that completes
   * when all of them are up, or fails with the first failure.
   */
  public CompletableFuture<Void> connect() {
    List<CompletableFuture<BoltConnection>> all = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      all.add(ensure(i));
    }
    return CompletableFuture.allOf(all.toArray(new CompletableFuture<?>[0]));
  }

  /** The connections currently up. */
  public List<Connection> connections() {
    List<Connection> up = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      BoltConnection c = live(slots.get(i));
      if (c != null) {
        up.add(c);
      }
    }
    return up;
  }

  /** The calls waiting for their answer on this pool's connections. */
  public int pendingCalls() {
    int pending = 0;
    for (int i = 0; i < size; i++) {
      BoltConnection c = live(slots.get(i));
      if (c != null) {
        pending += c.pendingCalls();
      }
    }
    return pending;
  }

  /**
   * Refuses new connections at once, and closes the current ones once no call waits on them any more
   * (every call has its own timeout, so this ends): an instance that left its cluster, whose calls in
   * flight are answered as usual.
   */
  @SuppressWarnings("FutureReturnValueIgnored") // closeWhenIdle, run when the calls complete, does not throw
  public void closeWhenIdle() {
    assert !pinned : "a pinned pool lives as long as its client";
    idleCloseWanted = true;
    closed = true;
    if (sending.sum() > 0) {
      return; // the last send in progress calls this again
    }
    List<PendingCall<?>> waiting = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      BoltConnection c = live(slots.get(i));
      if (c != null) {
        for (PendingCall<?> call : c.pendingSnapshot()) {
          if (!call.isDone()) { // a completing call may still be in the table
            waiting.add(call);
          }
        }
      }
    }
    if (waiting.isEmpty()) {
      close();
      return;
    }
    CompletableFuture.allOf(waiting.toArray(new CompletableFuture<?>[0]))
        .whenComplete((ignored, error) -> closeWhenIdle()); // calls sent before it began are waited for too
  }

  /** Refuses new connections and closes the current ones (their pending calls fail). */
  @SuppressWarnings("FutureReturnValueIgnored") // a failed attempt has no connection to close: nothing to see
  public void close() {
    closed = true;
    for (int i = 0; i < size; i++) {
      CompletableFuture<BoltConnection> f = slots.get(i);
      if (f != null) {
        f.thenAccept(BoltConnection::close);
      }
    }
  }

  private BoltConnection pick() {
    if (size > 1) {
      // sent from an IO thread (a gateway forwarding the request it just read, a callback making the next
      // call): the connection of that very thread, so that neither the request nor its answer changes threads
      for (int i = 0; i < size; i++) {
        BoltConnection c = live(slots.get(i));
        if (c != null && c.eventLoop().inEventLoop()) {
          if (c.isWritable()) {
            return c;
          }
          break;
        }
      }
    }
    // one connection (the default): no shared counter for every caller to contend on
    int start = size == 1 ? 0 : next.getAndIncrement();
    BoltConnection unwritable = null;
    for (int i = 0; i < size; i++) {
      BoltConnection c = live(slots.get(Math.floorMod(start + i, size)));
      if (c != null) {
        if (c.isWritable()) {
          return c;
        }
        unwritable = c;
      }
    }
    return unwritable; // null, or a connection that will refuse the call at once with a clear error
  }

  private static BoltConnection live(CompletableFuture<BoltConnection> f) {
    if (f == null || !f.isDone() || f.isCompletedExceptionally()) {
      return null;
    }
    BoltConnection c = f.getNow(null);
    return c.isActive() ? c : null;
  }

  private CompletableFuture<BoltConnection> connectAll() {
    CompletableFuture<BoltConnection> first = null;
    CompletableFuture<BoltConnection> failed = null;
    int start = Math.floorMod(next.get(), size);
    for (int i = 0; i < size; i++) {
      CompletableFuture<BoltConnection> f = ensure((start + i) % size);
      if (f.isCompletedExceptionally()) {
        failed = failed == null ? f : failed;
      } else if (first == null) {
        first = f;
      }
    }
    return first != null ? first : failed;
  }

  private CompletableFuture<BoltConnection> ensure(int slot) {
    for (;;) {
      CompletableFuture<BoltConnection> current = slots.get(slot);
      if (current != null) {
        if (!current.isDone()) {
          return current;
        }
        if (!current.isCompletedExceptionally()) {
          if (current.getNow(null).isActive()) {
            return current;
          }
        } else if (env.ticker().nanoTime() - retryAtNanos.get(slot) < 0) {
          return current; // backing off: fail fast with the last failure
        }
      }
      if (closed) {
        return CompletableFuture.failedFuture(new BoltException(ResponseStatus.CLIENT_SEND_ERROR,
            "the connections to " + address + " are closed (the client closed, or the instance left its cluster)"));
      }
      CompletableFuture<BoltConnection> attempt = new CompletableFuture<>();
      if (slots.compareAndSet(slot, current, attempt)) {
        start(slot, attempt);
        return attempt;
      }
    }
  }

  @SuppressWarnings("FutureReturnValueIgnored") // the action completes the attempt on every path, a bug included
  private void start(int slot, CompletableFuture<BoltConnection> attempt) {
    attemptsStarted.incrementAndGet();
    connector.connect(address, slot).whenComplete((connection, error) -> {
      try {
        connected(slot, attempt, connection, error);
      } catch (Throwable e) {
        // a bug: an attempt that never completes would hold its slot, and the calls waiting on it, for good
        reconnectFailures.warn("connecting to {} failed unexpectedly: {}", address, e.toString(), e);
        attempt.completeExceptionally(e);
      }
    });
  }

  /** The connect of {@code attempt} in {@code slot} ended: with {@code connection}, or with {@code error}. */
  private void connected(int slot, CompletableFuture<BoltConnection> attempt, BoltConnection connection,
      Throwable error) {
    if (error == null) {
      if (closed) {
        connection.close();
      }
      connection.closeFuture().addListener(f -> onClosed(slot, attempt, connection));
      attempt.complete(connection);
    } else {
      Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
      if (closed) {
        attempt.completeExceptionally(cause); // an attempt the close overtook: no next attempt to announce
        return;
      }
      long backoff = backoffNanos(failures.incrementAndGet(slot));
      retryAtNanos.set(slot, env.ticker().nanoTime() + backoff);
      connectFailures.info("could not connect to {}: {} (next attempt in {} ms)", address, cause.toString(),
          TimeUnit.NANOSECONDS.toMillis(backoff));
      events.connectFailed(address, cause);
      attempt.completeExceptionally(cause);
      scheduleReconnect(slot, attempt, backoff);
    }
  }

  /**
   * A connection closed. If the peer ever answered on it, it is re-made after the first backoff; if it stayed
   * open a while without an answer, after a backoff that keeps growing, and the next call re-makes it at once.
   * If the peer, in effect, refused it ({@link BoltConnection#closedAsRefused}: a TLS server dropping a plain
   * client, a client certificate refused after a TLS 1.3 handshake, a server that accepts and drops every
   * connection), it counts as a failed connect: the slot holds that failure and backs off, growing as after
   * failed connects, so calls fail at once instead of each opening a connection that closes again.
   *
   * <p>This runs from the channel's close future, before the channel goes inactive and fails its calls: a
   * caller that retries as soon as its call failed already finds the slot backing off.
   */
  private void onClosed(int slot, CompletableFuture<BoltConnection> attempt, BoltConnection connection) {
    if (!connection.closedAsRefused()) {
      int failuresInARow;
      if (connection.hasReceived()) {
        failures.set(slot, 0);
        failuresInARow = 1;
      } else {
        failuresInARow = failures.incrementAndGet(slot);
      }
      if (!closed && slots.get(slot) == attempt) {
        scheduleReconnect(slot, attempt, backoffNanos(failuresInARow));
      }
      return;
    }
    int failuresInARow = failures.incrementAndGet(slot);
    long backoff = backoffNanos(failuresInARow);
    long backoffMillis = TimeUnit.NANOSECONDS.toMillis(backoff);
    BoltException why = new BoltException(ResponseStatus.ERROR_COMM, "the connection to " + address
        + " closed before the peer answered anything on it (" + failuresInARow + " in a row; a server that"
        + " speaks TLS when this client does not, or the reverse, or refuses this client's certificate, closes"
        + " this way): no new connection for " + backoffMillis + " ms", null, null, address, 0, null);
    retryAtNanos.set(slot, env.ticker().nanoTime() + backoff); // before the slot shows the failure
    CompletableFuture<BoltConnection> failed = CompletableFuture.failedFuture(why);
    if (closed || !slots.compareAndSet(slot, attempt, failed)) {
      return; // the pool closed, or a newer attempt already holds the slot
    }
    connectFailures.info("the connection to {} closed before the peer answered anything on it ({} in a row;"
        + " next attempt in {} ms)", address, failuresInARow, backoffMillis);
    scheduleReconnect(slot, failed, backoff);
  }

  @SuppressWarnings("FutureReturnValueIgnored") // the attempt's failure is start's to log and back off from
  private void scheduleReconnect(int slot, CompletableFuture<BoltConnection> attempt, long delayNanos) {
    if (!reconnect || closed) {
      return;
    }
    try {
      env.timer().newTimeout(t -> {
        try {
          if (!closed && slots.get(slot) == attempt) {
            ensure(slot);
          }
        } catch (Throwable e) {
          // a bug: calls still reconnect on demand, but say why the background reconnect stopped
          reconnectFailures.warn("background reconnect to {} failed: {}", address, e.toString(), e);
        }
      }, delayNanos, TimeUnit.NANOSECONDS);
    } catch (IllegalStateException e) {
      // the timer stopped: the process is shutting down
    }
  }

  private long backoffNanos(int failureCount) {
    long backoff = minBackoffNanos << Math.min(20, Math.max(0, failureCount - 1));
    if (backoff <= 0 || backoff > maxBackoffNanos) {
      backoff = maxBackoffNanos;
    }
    // up to 20% less, so that many clients of one restarted server do not reconnect in lockstep, and the
    // longest wait never exceeds the maximum
    long jitter = backoff / 5;
    return jitter > 0 ? backoff - ThreadLocalRandom.current().nextLong(jitter + 1) : backoff;
  }

  private BoltException connectError(Throwable error) {
    Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    if (cause instanceof BoltException boltException) {
      return boltException;
    }
    return new BoltException(ResponseStatus.ERROR_COMM, "could not connect to " + address + ": " + cause,
        null, null, address, 0, cause);
  }
}
