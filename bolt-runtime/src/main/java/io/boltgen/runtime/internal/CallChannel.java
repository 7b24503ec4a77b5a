package io.boltgen.runtime.internal;

import io.boltgen.annotation.BoltCallback;
import io.boltgen.runtime.BoltChannel;
import io.boltgen.runtime.CallOptions;
import io.boltgen.runtime.ClientCall;
import io.boltgen.runtime.ClientInterceptor;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.MethodType;
import io.boltgen.runtime.internal.wire.StreamFrames;
import io.boltgen.runtime.support.RateLimitedLog;
import java.net.SocketAddress;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The four call styles, built on a {@link CallTarget}: the {@link BoltChannel} users and stubs hold. Each
 * makes the one call ({@link PendingCall}, the {@link ClientCall} of a unary method), sends it its request
 * and half-closes it, which hands it to the target; a sync caller waits on it ({@link SyncWait}), a future
 * caller gets a {@link CallFuture}, a callback is told through a {@link Delivery}. {@link #newCall} hands the
 * same call to a caller that drives it itself.
 *
 * <p>Thread-safe and stateless but for its target and environment.
 */
public final class CallChannel implements BoltChannel {

  private static final Logger log = LoggerFactory.getLogger(CallChannel.class);
  private static final RateLimitedLog onewayFailures = RateLimitedLog.of(log);
  private static final String STREAM_CREDIT = Integer.toString(StreamedMessages.WINDOW);

  private final CallTarget target;
  private final CallEnvironment env;

  /** A channel sending to {@code target} with the calls' shared {@code env}. */
  public CallChannel(CallTarget target, CallEnvironment env) {
    this.target = Objects.requireNonNull(target, "target");
    this.env = Objects.requireNonNull(env, "env");
  }

  @Override
  public <Q, R> R invokeSync(MethodDescriptor<Q, R> method, Q request, CallOptions options) {
    PendingCall<R> call = styleCall(method, options, MethodType.REQUEST_RESPONSE, null);
    call.sendMessage(request);
    call.halfClose(false); // the caller waits with the call's deadline: no timer entry
    return SyncWait.await(call);
  }

  @Override
  public <Q, R> CompletableFuture<R> invokeFuture(MethodDescriptor<Q, R> method, Q request, CallOptions options) {
    CallFuture<R> future = new CallFuture<>(env.callbackExecutor());
    PendingCall<R> call = styleCall(method, options, MethodType.REQUEST_RESPONSE, future);
    future.attach(call);
    call.sendMessage(request);
    call.halfClose(true);
    return future;
  }

  @Override
  public <Q, R> void invokeCallback(
      MethodDescriptor<Q, R> method, Q request, CallOptions options, BoltCallback<? super R> callback) {
    Objects.requireNonNull(callback, "callback");
    Executor executor = options.callbackExecutor() != null ? options.callbackExecutor() : env.callbackExecutor();
    PendingCall<R> call = styleCall(method, options, MethodType.REQUEST_RESPONSE,
        new Delivery<>(executor, callback, method));
    call.sendMessage(request);
    call.halfClose(true);
  }

  @Override
  public <Q> void invokeOneway(MethodDescriptor<Q, ?> method, Q request, CallOptions options) {
    oneway(method, request, options);
  }

  private <Q, R> void oneway(MethodDescriptor<Q, R> method, Q request, CallOptions options) {
    OnewayOutcome<R> outcome = new OnewayOutcome<>(method);
    PendingCall<R> call = styleCall(method, options, MethodType.ONEWAY, outcome);
    call.sendMessage(request);
    call.halfClose(false); // no answer to time
    RuntimeException refused = outcome.handedOff();
    if (refused != null) {
      throw refused; // refused at once (closed, not writable, no encoding, in backoff): tell the caller
    }
  }

  @Override
  @SuppressWarnings("unchecked") // the call encodes its request with its own method's marshaller, typed Q there
  public <Q, R> ClientCall<Q, R> newCall(MethodDescriptor<Q, R> method, CallOptions options) {
    MethodType type = method.type();
    boolean streams = type.streamsAnswers() || type.streamsRequests();
    CallOptions asked = !streams ? options
        : options.withHeader(StreamFrames.HEADER, STREAM_CREDIT); // boltgen's streams: the server's first credit
    Interception.Outgoing intercepted = intercept(method, asked);
    PendingCall<R> call = makeCall(method, asked, null, true, intercepted);
    if (!streams || intercepted == null || !intercepted.hasListeners()) {
      return (ClientCall<Q, R>) (ClientCall<?, R>) call;
    }
    // its listeners hear each message, then the end once the caller heard it (after the messages it still held)
    return (ClientCall<Q, R>) (ClientCall<?, R>) new MessageEvents<>(call, intercepted, type, env.ticker()::nanoTime);
  }

  @Override
  public SocketAddress remoteAddress() {
    return target.remoteAddress();
  }

  /** A new call of one of the styles above, of a method of {@code type}, told to {@code listener}. */
  private <R> PendingCall<R> styleCall(MethodDescriptor<?, R> method, CallOptions options, MethodType type,
      CallListener<R> listener) {
    Objects.requireNonNull(method, "method");
    if (method.type() != type) {
      throw new IllegalArgumentException(method.toString() + " is a " + method.type() + " method");
    }
    return makeCall(method, options, listener, false, intercept(method, options));
  }

  /** What the endpoint's interceptors make of a call of {@code method}, or {@code null} when it has none. */
  private Interception.Outgoing intercept(MethodDescriptor<?, ?> method, CallOptions options) {
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(options, "options");
    ClientInterceptor[] interceptors = env.clientInterceptors();
    return interceptors.length == 0 ? null
        : new Interception.Outgoing(interceptors, method, options, target.remoteAddress(), env.ticker().nanoTime());
  }

  /**
   * The one way a call is made: through the endpoint's interceptors, if any ({@code intercepted}: they may add
   * headers, refuse, and listen), failed at once if the client is closed or its deadline has passed.
   */
  @SuppressWarnings("FutureReturnValueIgnored") // Outgoing.complete logs a listener's failure: nothing to lose
  private <R> PendingCall<R> makeCall(MethodDescriptor<?, R> method, CallOptions options,
      CallListener<R> listener, boolean awaitingStart, Interception.Outgoing intercepted) {
    PendingCall<R> call = new PendingCall<>(method, intercepted != null ? intercepted.finalOptions() : options, env,
        target, listener, awaitingStart);
    if (intercepted != null && intercepted.hasListeners()) {
      call.whenComplete((value, error) -> {
        if (!intercepted.completionDeferred()) { // else MessageEvents tells it, once the caller heard the end
          intercepted.complete(error, env.ticker().nanoTime());
        }
      });
    }
    if (intercepted != null && intercepted.refusal() != null) {
      call.fail(intercepted.refusal());
    } else if (env.isClosed()) {
      call.fail(env.closedError());
    } else if (call.budget().expiredAtStart()) {
      call.timeoutNow();
    }
    return call;
  }

  /** Hands a callback-style call's outcome to its callback, on its executor. */
  private static final class Delivery<R> implements CallListener<R> {
    private final Executor executor;
    private final BoltCallback<? super R> callback;
    private final MethodDescriptor<?, ?> method;

    Delivery(Executor executor, BoltCallback<? super R> callback, MethodDescriptor<?, ?> method) {
      this.executor = executor;
      this.callback = callback;
      this.method = method;
    }

    @Override
    public void onComplete(R value, Throwable error) {
      Runnable task = () -> {
        try {
          if (error == null) {
            callback.onResponse(value);
          } else {
            callback.onError(Callbacks.unwrap(error));
          }
        } catch (RuntimeException | Error e) {
          Callbacks.threw("callback", method, e);
        }
      };
      Callbacks.execute(executor, task, "callback", method);
    }
  }

  /**
   * Where a oneway call's failure goes, decided once by the thread that completes it: one that fails while its
   * caller is still sending it is thrown to that caller; a later one (a connect that fails, a write that does
   * not complete) has nobody to tell and is logged, rate-limited.
   */
  private static final class OnewayOutcome<R> implements CallListener<R> {
    private final MethodDescriptor<?, ?> method;
    private final Thread caller = Thread.currentThread();
    private boolean sending = true; // read and written by the caller's thread only
    private RuntimeException refused; // likewise

    OnewayOutcome(MethodDescriptor<?, ?> method) {
      this.method = method;
    }

    @Override
    public void onComplete(R value, Throwable error) {
      if (error == null) {
        return;
      }
      if (sending && Thread.currentThread() == caller) {
        Throwable cause = Callbacks.unwrap(error);
        refused = cause instanceof RuntimeException runtime ? runtime
            : new java.util.concurrent.CompletionException(cause);
      } else {
        onewayFailures.warn("oneway {} not sent: {}", method.toString(), Callbacks.unwrap(error).getMessage());
      }
    }

    /** Called by the caller once the call is sent: what refused it meanwhile, if anything. */
    RuntimeException handedOff() {
      sending = false;
      return refused;
    }
  }
}
