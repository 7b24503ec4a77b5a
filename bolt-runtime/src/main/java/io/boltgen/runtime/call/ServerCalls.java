package io.boltgen.runtime.call;

import io.boltgen.runtime.Deadline;
import io.boltgen.runtime.ExecutorSelector;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.MethodType;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.RuntimeProvider.ServedService;
import io.boltgen.runtime.ServerContext;
import io.boltgen.runtime.ServerInterceptor;
import io.boltgen.runtime.ServiceInvoker;
import io.boltgen.runtime.support.MessageText;
import io.boltgen.runtime.support.RateLimitedLog;
import io.netty.util.Timer;
import io.netty.util.concurrent.Ticker;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The methods one server serves (or one client, for the calls its servers send back), and the one way a call
 * of any of them starts, whatever its transport: {@link #newCall} makes the one server call over a transport's
 * {@link ServerStream}, and a {@link Dispatch} hands calls to their executors. The call owns everything that
 * is not the wire: the executor it runs on (the {@link ExecutorSelector}'s choice, else its service's, else the
 * server's), the current context, the interceptors, the deadline and its timer, cancellation, the handler's
 * logging context and timing, and what a result or a failure becomes ({@link CallStatus}).
 *
 * <p>Thread-safe: immutable but for the counters.
 */
public final class ServerCalls {

  private static final Logger log = LoggerFactory.getLogger(ServerCalls.class);
  private static final RateLimitedLog selectorFailures = RateLimitedLog.of(log);
  private static final RateLimitedLog closingFailures = RateLimitedLog.of(log);

  private final List<Method> methods;
  private final Map<String, Method> httpRoutes;
  private final Executor defaultExecutor;
  private final ExecutorSelector selector;
  private final Timer timer;
  private final Ticker ticker;
  private final ServerInterceptor[] interceptors;
  private final Deadline.Ticker deadlineTicker;
  private final LongAdder cancelled = new LongAdder();
  private final List<Runnable> closingListeners = new CopyOnWriteArrayList<>();
  private volatile boolean closing;

  private ServerCalls(List<Method> methods, Executor defaultExecutor, ExecutorSelector selector, Timer timer,
      Ticker ticker, List<ServerInterceptor> interceptors) {
    this.methods = List.copyOf(methods);
    Map<String, Method> byPath = new LinkedHashMap<>();
    for (Method method : this.methods) {
      String path = method.descriptor().httpPath();
      if (path != null && byPath.putIfAbsent(path, method) != null) {
        log.warn("HTTP route {} is served by {} (registered first), not by {}", path, byPath.get(path), method);
      }
    }
    this.httpRoutes = Collections.unmodifiableMap(byPath);
    this.defaultExecutor = defaultExecutor;
    this.selector = selector;
    this.timer = timer;
    this.ticker = ticker;
    this.interceptors = interceptors.toArray(new ServerInterceptor[0]);
    this.deadlineTicker = deadlineTicker(ticker);
  }

  /** {@code ticker} as deadlines' clock: the system's own, or one reading {@code ticker} (a test's virtual time). */
  static Deadline.Ticker deadlineTicker(Ticker ticker) {
    if (ticker == Ticker.systemTicker()) {
      return Deadline.systemTicker();
    }
    return new Deadline.Ticker() {
      @Override
      public long nanoTime() {
        return ticker.nanoTime();
      }
    };
  }

  /**
   * The calls of {@code services}, run on each service's executor or else {@code defaultExecutor} (unless
   * {@code selector}, which may be {@code null}, chooses another), through {@code interceptors}; deadlines are
   * measured on {@code ticker} and timed on {@code timer} (the process's, or virtual ones in tests).
   */
  public static ServerCalls create(List<ServedService> services, Executor defaultExecutor, ExecutorSelector selector,
      Timer timer, Ticker ticker, List<ServerInterceptor> interceptors) {
    List<Method> methods = new ArrayList<>();
    for (ServedService served : services) {
      for (MethodDescriptor<?, ?> method : served.service().descriptor().methods()) {
        methods.add(new Method(method, served.service().invoker(), served.executor()));
      }
    }
    return new ServerCalls(methods, defaultExecutor, selector, timer, ticker, interceptors);
  }

  /**
   * The server began to close: it drains (left its registry, waits for its clients to move away), then stops. A
   * protocol that reports a server's health reports it not serving from here on. Once; never undone.
   */
  public void closing() {
    closing = true;
    for (Runnable listener : closingListeners.toArray(new Runnable[0])) {
      if (closingListeners.remove(listener)) { // each runs once, here or where it was added
        runClosingListener(listener);
      }
    }
  }

  /**
   * Runs {@code listener} once when the server begins to close ({@link #closing()}), on the thread that closes it;
   * at once if it began already. For a protocol that tells watchers of the server's health; it must be quick.
   */
  public void onClosing(Runnable listener) {
    closingListeners.add(listener);
    if (closing && closingListeners.remove(listener)) {
      runClosingListener(listener);
    }
  }

  private static void runClosingListener(Runnable listener) {
    try {
      listener.run();
    } catch (Throwable e) {
      closingFailures.warn("a listener of the server's closing failed: {}", MessageText.shorten(e.toString()));
    }
  }

  /** Whether the server began to close ({@link #closing()}). */
  public boolean isClosing() {
    return closing;
  }

  /**
   * The methods with an HTTP route ({@code /<proto package>.<Service>/<rpc>}, which Connect and gRPC share), by
   * route, in the order their services were added; a route two methods have is the first one's.
   */
  public Map<String, Method> httpRoutes() {
    return httpRoutes;
  }

  /** Every method served, in the order their services were added. */
  public List<Method> methods() {
    return methods;
  }

  /**
   * A new call of {@code method}, arriving over {@code stream} (on the IO thread that read it); the transport
   * then tells the returned listener the caller's message and starts the call with a {@link Dispatch}, or, for a
   * method that streams its requests, starts it at once and tells each message as the call asks for it.
   *
   * @param arrivalNanos when the request arrived, on this server's clock ({@link #nanoTime()})
   * @param timeoutMillis the caller's timeout, from its arrival: its deadline; 0 or less for none
   * @param oneway whether the caller expects no answer at all
   * @param answersDeadline whether the call itself ends at its deadline ({@link CallStatus#deadlineExceeded},
   *     by one timer), for a protocol that answers the caller then; otherwise a call past its deadline is only
   *     dropped before it runs, its caller having given up
   */
  public ServerStream.Listener newCall(Method method, ServerStream stream, long arrivalNanos, int timeoutMillis,
      boolean oneway, boolean answersDeadline) {
    ServedCall call = new ServedCall(this, method, stream, arrivalNanos, timeoutMillis, oneway, executor(method, stream));
    if (answersDeadline && timeoutMillis > 0 && !oneway) {
      call.armDeadline(timer);
    }
    stream.start(call);
    MethodType type = method.descriptor.type();
    if (type.streamsRequests()) {
      if (!stream.carriesRequestStreams()) { // else its handler asks for the caller's messages as it reads them
        call.refuse(ResponseStatus.NO_PROCESSOR, requestStreamsNotCarried(method.descriptor), null);
        stream.request(1); // the one request it carried, told only to be released
      }
      return call;
    }
    stream.request(2); // one request, and a second one to refuse if the caller sends it
    if (type == MethodType.SERVER_STREAMING && !stream.carriesStreams()) {
      call.refuse(ResponseStatus.NO_PROCESSOR, method + " streams its answer, which this caller's protocol cannot"
          + " carry: call it over gRPC, Connect's streaming protocol, or Bolt with a boltgen client", null);
    }
    return call;
  }

  /**
   * Why a caller whose protocol carries one request per call is refused {@code method}, which streams its requests:
   * the one wording every protocol answers with.
   */
  public static String requestStreamsNotCarried(MethodDescriptor<?, ?> method) {
    return method + " streams its requests, which this caller's protocol cannot carry: call it over gRPC, Connect's"
        + " streaming protocol, or Bolt with a boltgen client";
  }

  /** The executor a call of {@code method} runs on (IO thread). */
  private Executor executor(Method method, ServerStream stream) {
    Executor executor = method.executor != null ? method.executor : defaultExecutor;
    if (selector != null) {
      try {
        Executor chosen = selector.select(method.descriptor, stream.headers());
        if (chosen != null) {
          executor = chosen;
        }
      } catch (Throwable e) {
        selectorFailures.warn("executor selector failed for request id {} from {} ({}); using the default executor",
            stream.streamId(), stream.remoteText(), MessageText.shorten(e.toString()));
      }
    }
    return executor;
  }

  /** A dispatch of the calls of one read (confined to the IO thread that uses it; reusable). */
  public Dispatch newDispatch() {
    return new Dispatch(timer);
  }

  /** The calls cancelled so far: their callers went away before they were answered. */
  public long cancelledCalls() {
    return cancelled.sum();
  }

  /** Now, on the clock deadlines are measured on. */
  public long nanoTime() {
    return ticker.nanoTime();
  }

  /** The context of the call the current thread serves (see {@link ServerContext#current()}). */
  public static ServerContext current() {
    return CurrentCall.get();
  }

  /**
   * What is left of the deadline of the call the current thread serves, in nanoseconds (zero or less once it
   * passed); {@link Long#MAX_VALUE} on a thread that serves no call, or for a call whose caller set no deadline.
   * The calls a handler makes on its own thread inherit it (allocation-free: one thread-local read).
   */
  public static long inheritedNanos() {
    ServedContext served = CurrentCall.peek();
    if (served == null) {
      return Long.MAX_VALUE;
    }
    long deadline = served.deadlineNanos();
    return deadline == Long.MAX_VALUE ? Long.MAX_VALUE : deadline - served.calls.ticker().nanoTime();
  }

  void callCancelled() {
    cancelled.increment();
  }

  Ticker ticker() {
    return ticker;
  }

  Deadline.Ticker deadlineTicker() {
    return deadlineTicker;
  }

  ServerInterceptor[] interceptors() {
    return interceptors;
  }

  /**
   * One method served: its descriptor, its service's invoker, its executor ({@code null} for the server's), and
   * how long its handler has been taking lately. The handler time (an exponentially weighted moving average,
   * updated without a lock: a lost update only delays the average a little) decides how calls go to the
   * executor: calls of quick methods that start together share one task, calls of slow ones get a task each.
   *
   * <p>Thread-safe.
   */
  public static final class Method {

    /** A handler that takes longer than this on average runs one call per task. */
    static final long SLOW_NANOS = TimeUnit.MICROSECONDS.toNanos(50);

    final MethodDescriptor<?, ?> descriptor;
    final ServiceInvoker invoker;
    final Executor executor;
    private final String name;
    private volatile long averageNanos;

    Method(MethodDescriptor<?, ?> descriptor, ServiceInvoker invoker, Executor executor) {
      this.descriptor = descriptor;
      this.invoker = invoker;
      this.executor = executor;
      this.name = descriptor.toString();
    }

    /** The method's descriptor. */
    public MethodDescriptor<?, ?> descriptor() {
      return descriptor;
    }

    /** Records one run of the handler. */
    void recordHandlerTime(long nanos) {
      long average = averageNanos;
      averageNanos = average + ((nanos - average) >> 3);
    }

    /** Whether the handler has lately been slow enough to deserve a task per call. */
    boolean isSlow() {
      return averageNanos > SLOW_NANOS;
    }

    @Override
    public String toString() {
      return name;
    }
  }

  /**
   * Hands the calls that one read started to their executors: a call of a slow method gets a task of its own,
   * so that such calls run in parallel; calls of quick methods that go to the same executor share one task (up
   * to {@value #MAX_SHARED} of them), which runs them one after the other and writes their answers at
   * once: one queue hand-off, one thread wake-up and one flush instead of one each, which is most of what a
   * business executor costs. Each call still checks its own deadline when its turn comes, and a shared task
   * stuck in a handler hands its remaining calls out one by one ({@link SharedTask}). A full executor refuses
   * its calls {@link CallStatus.Kind#BUSY}.
   *
   * <p>Confined to one IO thread; reusable after {@link #submit}.
   */
  public static final class Dispatch {

    /** The most calls one shared task runs. */
    public static final int MAX_SHARED = 32;

    /** How long a shared task may be stuck in one handler before its other calls run elsewhere, in ms. */
    public static final long STALL_MILLIS = 10;

    private final Timer timer;
    // quick calls wait here, per executor, until the read is done or a task is full
    private SharedTask open;
    private SharedTask other; // a second executor in the same read is rare; more than two rarer still

    Dispatch(Timer timer) {
      this.timer = timer;
    }

    /**
     * Starts {@code call}, made by {@link #newCall} and told its messages: now if its method is slow, else with
     * the other quick calls of this read, at {@link #submit}. A call already closed (refused while its message
     * was decoded on arrival) is not started.
     */
    public void start(ServerStream.Listener call) {
      ServedCall served = (ServedCall) call;
      if (served.isClosed()) {
        served.discardMessage(); // refused or cancelled before it started: never run, its bytes freed here
        return;
      }
      Executor executor = served.executor();
      if (served.servedMethod().isSlow()) {
        SharedTask.submitAlone(executor, served);
        return;
      }
      if (open == null || open.executor == executor) {
        open = addTo(open, executor, served);
      } else {
        if (other != null && other.executor != executor) {
          SharedTask full = other;
          other = null;
          full.submit();
        }
        other = addTo(other, executor, served);
      }
    }

    private SharedTask addTo(SharedTask task, Executor executor, ServedCall call) {
      SharedTask t = task != null ? task : new SharedTask(executor, timer);
      if (t.add(call)) {
        t.submit();
        return null;
      }
      return t;
    }

    /** Hands every call started since the last submit to its executor. */
    public void submit() {
      SharedTask a = open;
      SharedTask b = other;
      open = null;
      other = null;
      if (a != null) {
        a.submit();
      }
      if (b != null) {
        b.submit();
      }
    }

    /** Refuses every call started since the last submit without running it ({@link CallStatus.Kind#BUSY}). */
    public void refuse() {
      SharedTask a = open;
      SharedTask b = other;
      open = null;
      other = null;
      if (a != null) {
        a.refuse();
      }
      if (b != null) {
        b.refuse();
      }
    }
  }
}
