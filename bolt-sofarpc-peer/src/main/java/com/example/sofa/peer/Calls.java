package com.example.sofa.peer;

import com.alipay.sofa.rpc.api.future.SofaResponseFuture;
import com.alipay.sofa.rpc.context.RpcInvokeContext;
import com.alipay.sofa.rpc.core.exception.RpcErrorType;
import com.alipay.sofa.rpc.core.exception.SofaRpcException;
import com.alipay.sofa.rpc.core.exception.SofaTimeOutException;
import com.alipay.sofa.rpc.core.invoke.SofaResponseCallback;
import com.alipay.sofa.rpc.core.request.RequestBase;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/** How the checks call through SOFARPC's invoke types, and what they share. */
final class Calls {
  private Calls() {}

  /** The answer of the future call {@code call} just made (SofaResponseFuture, this thread's). */
  static Object future(Runnable call, long timeoutMs) throws Exception {
    call.run(); // a future consumer's proxy returns null (0, false) at once
    return SofaResponseFuture.getResponse(timeoutMs, true);
  }

  /** The answer {@code call}, on a callback consumer, delivers to a per-call SofaResponseCallback. */
  static Object callback(Runnable call, long timeoutMs) throws Exception {
    CompletableFuture<Object> answer = new CompletableFuture<>();
    RpcInvokeContext.getContext().setResponseCallback(new SofaResponseCallback<Object>() {
      @Override
      public void onAppResponse(Object appResponse, String methodName, RequestBase request) {
        answer.complete(appResponse);
      }

      @Override
      public void onAppException(Throwable throwable, String methodName, RequestBase request) {
        answer.completeExceptionally(throwable);
      }

      @Override
      public void onSofaException(SofaRpcException exception, String methodName, RequestBase request) {
        answer.completeExceptionally(exception);
      }
    });
    call.run();
    try {
      return answer.get(timeoutMs, TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof Exception cause ? cause : e;
    }
  }

  /** Pins this thread's next call to {@code target} (bolt://host:port), if not null. */
  static void pin(String target) {
    if (target != null) {
      RpcInvokeContext.getContext().setTargetURL(target);
    }
  }

  /**
   * Polls {@code count} (at most 5 s, every 20 ms) until it says {@code want}; what it said last.
   */
  static int pollUntil(IntSupplier count, int want) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    int last = count.getAsInt();
    while (last != want && System.nanoTime() < deadline) {
      Sleep.millis(20);
      last = count.getAsInt();
    }
    return last;
  }

  /** The timeout check: {@code call} must fail with SOFARPC's client timeout, well before the provider answers. */
  static String timeout(Supplier<Object> call, long slowMs) throws PeerConsumer.Failed {
    long start = System.nanoTime();
    Object answer;
    try {
      answer = call.get();
    } catch (SofaRpcException e) {
      long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      String what = (e instanceof SofaTimeOutException ? "SofaTimeOutException" : e.getClass().getName())
          + " errorType=" + e.getErrorType() + " after " + took + " ms: " + e.getMessage();
      if (e.getErrorType() == RpcErrorType.CLIENT_TIMEOUT && took < slowMs) {
        return what;
      }
      throw new PeerConsumer.Failed("not a client timeout in time: " + what);
    }
    throw new PeerConsumer.Failed("answered " + answer + " instead of timing out");
  }

  /**
   * The "unknownservice" check: {@code call} asks for a service the provider does not export, {@code uniqueName};
   * passes when the provider's own error names it (SOFARPC's provider answers so), not a transport failure.
   */
  static String unknownService(Supplier<Object> call, String uniqueName) throws PeerConsumer.Failed {
    try {
      Object got = call.get();
      throw new PeerConsumer.Failed("an absent service answered " + got);
    } catch (SofaRpcException e) {
      String what = PeerConsumer.describe(e) + " errorType=" + e.getErrorType();
      expect(what.contains(uniqueName) && !what.contains("ServerErrorMsg:null"),
          "not the provider's unknown-service error: " + what);
      return what;
    }
  }

  /** The spread check's verdict on {@code counts} (id → calls it answered), its SPREAD lines printed. */
  static String spread(Map<String, Integer> counts) throws PeerConsumer.Failed {
    for (Map.Entry<String, Integer> e : new TreeMap<>(counts).entrySet()) {
      PeerMain.OUT.println("SPREAD " + e.getKey() + " " + e.getValue());
    }
    if (counts.size() > 1) {
      return "answered by " + counts.size() + " providers " + new TreeMap<>(counts);
    }
    throw new PeerConsumer.Failed("answered by one provider only " + counts);
  }

  static void expect(boolean ok, String what) throws PeerConsumer.Failed {
    if (!ok) {
      throw new PeerConsumer.Failed(what);
    }
  }
}
