package com.example.sofa.peer;

import com.alipay.sofa.rpc.config.ConsumerConfig;
import com.alipay.sofa.rpc.context.RpcInvokeContext;
import com.alipay.sofa.rpc.context.RpcRuntimeContext;
import com.alipay.sofa.rpc.core.exception.SofaRpcException;
import com.alipay.sofa.rpc.core.invoke.SofaResponseCallback;
import com.alipay.sofa.rpc.core.request.RequestBase;
import com.example.sofa.hessian.GreetService;
import com.example.sofa.hessian.Greeting;
import com.example.sofa.hessian.Person;
import com.example.sofa.proto.EchoReply;
import com.example.sofa.proto.EchoRequest;
import com.example.sofa.proto.EchoService;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * The {@code bench} mode: SOFARPC consumers loading a provider, for bolt-benchmarks' {@code sofarpc} command. One
 * window per line of standard input, {@code <protobuf|hessian2> <sync|async> <concurrency> <warmupMs> <measureMs>};
 * for each it runs the load (sync: that many threads calling back to back; async: that many callback calls in flight,
 * each completion issuing the next), prints {@code MEASURING} when the measured window starts and then one line
 * {@code RESULT calls=N errors=N seconds=S p50us=X p99us=X cpuns=N error=TEXT}: calls answered correctly in the
 * window, failures, its length, latency percentiles of the answered calls, and this process's CPU time (all
 * threads) over the window. The consumers are referred once and kept, as a long-running client keeps them.
 *
 * <p>The calls: protobuf {@code EchoService.echo} of a 100-letter text once; hessian2 {@code GreetService.greet} of
 * {@link #greeting()}. bolt-benchmarks' boltgen client sends the same values.
 */
final class PeerBench {

  private static final int TIMEOUT_MS = 5000;
  private static final int MAX_INLINE_DEPTH = 16;
  private static final ThreadLocal<int[]> DEPTH = ThreadLocal.withInitial(() -> new int[1]);

  private final String direct;
  private final Map<String, Object> refs = new LinkedHashMap<>();
  private final List<ConsumerConfig<?>> referred = new ArrayList<>();

  private PeerBench(String direct) {
    this.direct = direct;
  }

  /** Refers both services at {@code direct}, says READY, then runs the loads standard input asks for. */
  static int run(String direct) throws Exception {
    PeerBench bench = new PeerBench(direct);
    try {
      // refer both services and make one checked call each before saying READY: first-call costs come first
      for (String serializer : List.of("protobuf", "hessian2")) {
        Call call = bench.call(serializer, "sync");
        String wrong = call.check(call.sync());
        if (wrong != null) {
          throw new IllegalStateException(serializer + ": " + wrong);
        }
      }
      PeerMain.OUT.println("READY");
      BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      for (String line; (line = in.readLine()) != null; ) {
        if (line.isBlank() || line.trim().equals("stop")) {
          break;
        }
        String[] w = line.trim().split("\\s+");
        if (w.length != 5) {
          PeerMain.OUT.println("BAD " + line);
          continue;
        }
        PeerMain.OUT.println(bench.window(w[0], w[1], Integer.parseInt(w[2]), Long.parseLong(w[3]),
            Long.parseLong(w[4])));
      }
    } finally {
      bench.close();
    }
    return 0;
  }

  /** One call of a serializer's benchmark method, the sync way and the callback way, and its answer's check. */
  interface Call {
    Object sync();

    /** Issues the call with {@code callback} as its per-call SofaResponseCallback (a callback consumer). */
    void async(SofaResponseCallback<Object> callback);

    /** Null if {@code answer} is what the provider must answer, else what is wrong. */
    String check(Object answer);
  }

  /** The 100-letter text the protobuf calls echo. */
  static EchoRequest echoRequest() {
    return EchoRequest.newBuilder().setText("x".repeat(100)).setTimes(1).build();
  }

  /** The small Greeting the hessian2 calls send. */
  static Greeting greeting() {
    Greeting g = new Greeting();
    g.setName("boltgen");
    g.setTimes(1);
    g.setStamp(1_700_000_000_000L);
    g.setScore(1.5);
    g.setFormal(true);
    g.setTags(List.of("a", "b"));
    g.setCounts(new LinkedHashMap<>(Map.of("k", 1)));
    g.setFrom(new Person("ann", 30));
    return g;
  }

  private Call call(String serializer, String load) {
    boolean async = load.equals("async");
    String invokeType = async ? "callback" : "sync";
    switch (serializer) {
      case "protobuf" -> {
        EchoService echo = ref(EchoService.class, "protobuf", invokeType);
        EchoRequest request = echoRequest();
        return new Call() {
          @Override
          public Object sync() {
            return echo.echo(request);
          }

          @Override
          public void async(SofaResponseCallback<Object> callback) {
            RpcInvokeContext.getContext().setResponseCallback(callback);
            echo.echo(request);
          }

          @Override
          public String check(Object answer) {
            return answer instanceof EchoReply r && r.getLength() == 100 ? null : "answered " + answer;
          }
        };
      }
      case "hessian2" -> {
        GreetService greet = ref(GreetService.class, "hessian2", invokeType);
        Greeting request = greeting();
        return new Call() {
          @Override
          public Object sync() {
            return greet.greet(request);
          }

          @Override
          public void async(SofaResponseCallback<Object> callback) {
            RpcInvokeContext.getContext().setResponseCallback(callback);
            greet.greet(request);
          }

          @Override
          public String check(Object answer) {
            return answer instanceof Greeting g && "hello boltgen".equals(g.getName()) && g.getTimes() == 2 ? null
                : "answered " + answer;
          }
        };
      }
      default -> throw new IllegalArgumentException("serializer protobuf|hessian2: " + serializer);
    }
  }

  private <T> T ref(Class<T> service, String serializer, String invokeType) {
    String key = service.getName() + "/" + invokeType;
    Object ref = refs.get(key);
    if (ref == null) {
      ConsumerConfig<T> config = new ConsumerConfig<T>()
          .setApplication(Sofa.application())
          .setInterfaceId(service.getName())
          .setProtocol(Sofa.PROTOCOL)
          .setSerialization(serializer)
          .setInvokeType(invokeType)
          .setTimeout(TIMEOUT_MS)
          .setConnectTimeout(TIMEOUT_MS)
          .setRepeatedReferLimit(100)
          .setDirectUrl("bolt://" + direct)
          .setRegister(false);
      ref = config.refer();
      referred.add(config);
      refs.put(key, ref);
    }
    return service.cast(ref);
  }

  /** Runs one window and returns its RESULT line. */
  private String window(String serializer, String load, int concurrency, long warmupMs, long measureMs)
      throws InterruptedException {
    if (concurrency < 1 || !(load.equals("sync") || load.equals("async"))) {
      return "BAD load " + load + " " + concurrency;
    }
    Call call = call(serializer, load);
    Load running = new Load(call, concurrency);
    if (load.equals("sync")) {
      running.startSync();
    } else {
      running.startAsync();
    }
    try {
      TimeUnit.MILLISECONDS.sleep(warmupMs); // the warm-up: the load runs meanwhile
      PeerMain.OUT.println("MEASURING");
      long cpu0 = cpuNanos();
      running.reset();
      long t0 = System.nanoTime();
      TimeUnit.MILLISECONDS.sleep(measureMs); // the measured window
      long t1 = System.nanoTime();
      long[] latencies = running.latencies.take();
      long calls = running.calls.sum();
      long errors = running.errors.sum();
      long cpu1 = cpuNanos();
      String error = running.firstError.get();
      return String.format(Locale.ROOT, "RESULT calls=%d errors=%d seconds=%.6f p50us=%.1f p99us=%.1f cpuns=%d error=%s",
          calls, errors, (t1 - t0) / 1e9, Latencies.percentile(latencies, 50) / 1000.0,
          Latencies.percentile(latencies, 99) / 1000.0, cpu0 < 0 || cpu1 < 0 ? -1 : cpu1 - cpu0,
          error == null ? "" : PeerConsumer.oneLine(error));
    } finally {
      running.stop();
    }
  }

  /** This process's CPU time (all threads, user + system) in nanoseconds, or -1. */
  private static long cpuNanos() {
    return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
        ? os.getProcessCpuTime() : -1;
  }

  private void close() {
    for (ConsumerConfig<?> config : referred) {
      try {
        config.unRefer();
      } catch (RuntimeException e) {
        System.err.println("sofa-peer: unRefer " + config.getInterfaceId() + ": " + e);
      }
    }
    RpcRuntimeContext.destroy();
  }

  /** A running closed-loop load of one call. */
  private static final class Load {
    final Call call;
    final int concurrency;
    final Latencies latencies = new Latencies();
    final LongAdder calls = new LongAdder();
    final LongAdder errors = new LongAdder();
    final AtomicReference<String> firstError = new AtomicReference<>();
    final AtomicInteger inFlight = new AtomicInteger();
    final List<Thread> threads = new ArrayList<>();
    final ExecutorService trampoline = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "bench-trampoline");
      t.setDaemon(true);
      return t;
    });
    volatile boolean stopped;

    Load(Call call, int concurrency) {
      this.call = call;
      this.concurrency = concurrency;
    }

    void outcome(long start, Object answer, Throwable error) {
      String wrong = error != null ? error.toString() : call.check(answer);
      if (wrong == null) {
        latencies.record(System.nanoTime() - start);
        calls.increment();
      } else {
        errors.increment();
        firstError.compareAndSet(null, wrong);
      }
    }

    void reset() {
      latencies.take();
      calls.reset();
      errors.reset();
      firstError.set(null);
    }

    void startSync() {
      for (int i = 0; i < concurrency; i++) {
        Thread t = new Thread(() -> {
          while (!stopped) {
            long start = System.nanoTime();
            try {
              outcome(start, call.sync(), null);
            } catch (RuntimeException e) {
              outcome(start, null, e);
            }
          }
        }, "bench-sync-" + i);
        t.setDaemon(true);
        threads.add(t);
        t.start();
      }
    }

    void startAsync() {
      for (int i = 0; i < concurrency; i++) {
        issue();
      }
    }

    private void issue() {
      if (stopped) {
        return;
      }
      inFlight.incrementAndGet();
      long start = System.nanoTime();
      try {
        call.async(new SofaResponseCallback<Object>() {
          @Override
          public void onAppResponse(Object appResponse, String methodName, RequestBase request) {
            done(start, appResponse, null);
          }

          @Override
          public void onAppException(Throwable throwable, String methodName, RequestBase request) {
            done(start, null, throwable);
          }

          @Override
          public void onSofaException(SofaRpcException exception, String methodName, RequestBase request) {
            done(start, null, exception);
          }
        });
      } catch (RuntimeException e) {
        done(start, null, e);
      }
    }

    private void done(long start, Object answer, Throwable error) {
      outcome(start, answer, error);
      inFlight.decrementAndGet();
      int[] depth = DEPTH.get();
      if (depth[0] >= MAX_INLINE_DEPTH) {
        try {
          trampoline.execute(this::issue);
        } catch (RejectedExecutionException e) {
          // stopped meanwhile: the chain ends
        }
        return;
      }
      depth[0]++;
      try {
        issue();
      } finally {
        depth[0]--;
      }
    }

    void stop() throws InterruptedException {
      stopped = true;
      for (Thread t : threads) {
        t.join(10_000);
      }
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (inFlight.get() > 0 && System.nanoTime() < deadline) {
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1)); // polling a counter the callbacks decrement
      }
      trampoline.shutdownNow();
    }
  }
}
