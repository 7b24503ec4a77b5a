package io.boltgen.sofarpc.it;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.boltgen.hessian.HessianClass;
import io.boltgen.hessian.HessianException;
import io.boltgen.hessian.HessianReader;
import io.boltgen.hessian.HessianType;
import io.boltgen.hessian.HessianWriter;
import io.boltgen.runtime.BoltChannel;
import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.BoltServer;
import io.boltgen.runtime.CallOptions;
import io.boltgen.runtime.Connection;
import io.boltgen.runtime.ConnectionListener;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.ServerInterceptor;
import io.boltgen.runtime.codec.RawBytesMarshaller;
import io.boltgen.sofarpc.SofaRpc;
import io.boltgen.sofarpc.it.hessian.GreetService;
import io.boltgen.sofarpc.it.hessian.GreetServiceBolt;
import io.boltgen.sofarpc.it.hessian.GreetServiceImpl;
import io.boltgen.sofarpc.it.hessian.Greeting;
import io.boltgen.sofarpc.it.hessian.Person;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Hessian2 fuzz over the wire: mutated SOFARPC request bodies, sent as raw content under the headers of real
 * GreetService methods to a boltgen server, fail their own call only. Every call is answered (by its method, or
 * refused as undecodable), the connection stays up, and typed calls interleaved with the fuzz keep being served.
 *
 * <p>Seeded: {@code -Dsofarpc.fuzz.seed=N} replays a run; each case prints its own seed and mutations. Under the
 * build's paranoid leak detection about two thirds of its CPU goes to the detector recording each byte the
 * Hessian reader reads (20,000 cases: ~34 s of CPU, ~11 s with {@code io.netty.leakDetection.acquireAndReleaseOnly}).
 */
@Timeout(180) // a hang fails its call with TIMEOUT after 10 s; this only bounds a stuck test on a loaded machine
class SofaRpcFuzzTest {

  private static final long SEED = Long.getLong("sofarpc.fuzz.seed", 0x50FA_F022L);
  private static final int CASES = 20_000;
  private static final int IN_FLIGHT = 64;
  private static final int CHECK_EVERY = 500;
  private static final int MAX_PROBLEMS = 20;
  // a hang shows up as TIMEOUT, long before the test's own timeout
  private static final CallOptions OPTIONS = CallOptions.DEFAULT.withTimeoutMillis(10_000);
  // what a request that does not decode may fail with: the reader's one exception, or the envelope's check
  private static final Set<String> DECODE_FAILURES =
      Set.of(HessianException.class.getName(), IllegalArgumentException.class.getName());
  private static final byte[] INTERESTING = {0, 1, 'N', 'T', 'F', 'O', 'o', 'V', 'v', 'M', 'z', 'R', 'S', 's',
      'B', 'b', 'I', 'L', 'D', 'l', 0x4a, 0x4b, 0x6e, 0x75, 't', 0x7f, (byte) 0x80, (byte) 0x90, (byte) 0xc8,
      (byte) 0xd4, (byte) 0xd7, (byte) 0xff};

  private BoltServer server;
  private BoltClient client;
  private final AtomicInteger serverConnects = new AtomicInteger();
  private final AtomicInteger serverCloses = new AtomicInteger();
  private final AtomicInteger handled = new AtomicInteger();
  private final AtomicInteger answered = new AtomicInteger();
  private final AtomicInteger handlerFailures = new AtomicInteger();
  private final Queue<String> problems = new ConcurrentLinkedQueue<>();

  @BeforeEach
  void start() {
    ServerInterceptor counting = call -> {
      handled.incrementAndGet();
      return (status, error, elapsedNanos) -> {
        answered.incrementAndGet();
        if (error != null) {
          handlerFailures.incrementAndGet();
          if (status != ResponseStatus.SERVER_EXCEPTION) {
            problems.add("the handler of " + call.method() + " failed with " + error + " but was answered " + status);
          }
        }
      };
    };
    server = BoltServer.builder().bind("127.0.0.1", 0)
        .service(GreetServiceBolt.bind(new GreetServiceImpl("fuzz")))
        .serverInterceptor(counting)
        .connectionListener(new ConnectionListener() {
          @Override
          public void onConnect(Connection connection) {
            serverConnects.incrementAndGet();
          }

          @Override
          public void onClose(Connection connection) {
            serverCloses.incrementAndGet();
          }
        })
        .build().start();
    client = BoltClient.builder().build();
  }

  @AfterEach
  void stop() {
    client.close();
    server.close();
  }

  private String address() {
    return "127.0.0.1:" + server.port();
  }

  // ---------------------------------------------------------------------------------------------- the fuzz

  @Test
  void mutatedSofaRpcFramesFailTheirOwnCallOnly() throws InterruptedException {
    List<Seed> seeds = seeds();
    GreetService greet = GreetServiceBolt.newClient(client, address());
    assertThat(greet.whoami()).isEqualTo("fuzz");
    List<Connection> before = client.connections();
    assertThat(before).hasSize(1);
    BoltChannel channel = client.channel(address(), SofaRpc.WIRE_PROTOCOL); // the typed client's connection

    AtomicInteger successes = new AtomicInteger();
    AtomicInteger undecodable = new AtomicInteger();
    AtomicInteger failedInHandler = new AtomicInteger();
    Semaphore slots = new Semaphore(IN_FLIGHT);
    Random master = new Random(SEED);
    long started = System.nanoTime();
    Duration cpuBefore = cpuTime();
    int sent = 0;
    int checks = 0;
    for (int i = 0; i < CASES && problems.size() < MAX_PROBLEMS; i++) {
      Case c = mutate(i, master.nextLong(), seeds);
      assertThat(slots.tryAcquire(30, SECONDS)).as("%s: a call slot freed within 30 s", c).isTrue();
      CompletableFuture<?> call;
      try {
        call = channel.invokeFuture(c.from().raw(), c.body(), OPTIONS);
      } catch (RuntimeException e) {
        slots.release();
        problems.add(c + ": refused at once: " + e);
        continue;
      }
      sent++;
      CompletableFuture<?> unused = call.whenComplete((result, error) -> {
        try {
          Throwable e = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
          if (e == null) {
            successes.incrementAndGet();
          } else if (!(e instanceof BoltException failure)) {
            problems.add(c + ": failed with " + e);
          } else if (failure.status() == ResponseStatus.SERVER_DESERIAL_EXCEPTION
              && DECODE_FAILURES.contains(failure.remoteClassName())) {
            undecodable.incrementAndGet();
          } else if (failure.status() == ResponseStatus.SERVER_EXCEPTION) {
            failedInHandler.incrementAndGet();
          } else {
            problems.add(c + ": failed with " + failure.status() + " (remote " + failure.remoteClassName() + "): "
                + failure.getMessage());
          }
        } finally {
          slots.release();
        }
      });
      if (i % CHECK_EVERY == CHECK_EVERY - 1) {
        // the server still serves typed calls on the same connection, with the fuzz in flight
        Greetings.assertGreeted(greet.greet(Greetings.full()), Greetings.full());
        assertThat(greet.join("after case " + i, i)).isEqualTo("after case " + i + ":" + i);
        checks++;
      }
    }
    assertThat(slots.tryAcquire(IN_FLIGHT, 60, SECONDS)).as("every fuzzed call completed (seed %d)", SEED).isTrue();
    long millis = Duration.ofNanos(System.nanoTime() - started).toMillis();
    long cpuMillis = cpuTime().minus(cpuBefore).toMillis();

    assertThat(problems).as("calls that failed otherwise than their own decoding or handler (seed %d)", SEED)
        .isEmpty();
    assertThat(sent).isEqualTo(CASES);
    assertThat(successes.get() + undecodable.get() + failedInHandler.get()).isEqualTo(CASES);
    assertThat(successes).as("mutations that still decode (seed %d)", SEED).hasPositiveValue();
    assertThat(undecodable).as("mutations refused as undecodable (seed %d)", SEED).hasPositiveValue();
    assertThat(failedInHandler).as("answers carrying a handler's failure (seed %d)", SEED).hasPositiveValue();
    assertThat(checks).isEqualTo(CASES / CHECK_EVERY);

    // still the one connection it started with, on both sides
    assertThat(greet.whoami()).isEqualTo("fuzz");
    assertThat(client.connections()).as("no reconnect (seed %d)", SEED).containsExactlyElementsOf(before);
    assertThat(server.connections()).hasSize(1);
    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(serverConnects).hasValue(1));
    assertThat(serverCloses).hasValue(0);
    // every call that reached its handler was answered, and each failure there came back as SERVER_EXCEPTION
    assertThat(answered).hasValue(handled.get());
    assertThat(handlerFailures).hasValue(failedInHandler.get());
    System.out.printf("SofaRpcFuzzTest seed %d: %d cases in %d ms (%d ms of CPU): %d answered, %d undecodable, %d "
        + "failed in their handler; %d typed checks%n", SEED, CASES, millis, cpuMillis, successes.get(),
        undecodable.get(), failedInHandler.get(), checks);
  }

  // ------------------------------------------------------------------------------ header against body

  @Test
  void aSofaRequestForAnotherMethodThanItsHeaderIsRefusedNamingTheMismatch() {
    BoltChannel channel = client.channel(address());
    MethodDescriptor<byte[], String> join = raw(GreetServiceBolt.METHOD_JOIN);
    byte[] greetBody = encode(GreetServiceBolt.METHOD_GREET, new GreetServiceBolt.GreetRequest(Greetings.full()));

    assertThatThrownBy(() -> channel.invokeSync(join, greetBody, OPTIONS))
        .isInstanceOfSatisfying(BoltException.class, e -> {
          assertThat(e.status()).isEqualTo(ResponseStatus.SERVER_DESERIAL_EXCEPTION);
          assertThat(e.remoteClassName()).isEqualTo(IllegalArgumentException.class.getName());
          // the message carries the peer's text cut (MessageText); remoteMessage() has it whole
          assertThat(e.getMessage()).contains("asks for \"com.example.sofa.hessian.GreetService:1.0\" method \"greet\"");
          assertThat(e.remoteMessage()).contains("asks for \"com.example.sofa.hessian.GreetService:1.0\" method"
              + " \"greet\"").contains("not com.example.sofa.hessian.GreetService:1.0 method join as its header says");
        });

    // the right method, declaring other argument types than join(String, int)
    byte[] otherTypes = sofaRequest("join", List.of("java.lang.String", "long"), out -> {
      out.writeString("a");
      out.writeLong(7);
    });
    assertThatThrownBy(() -> channel.invokeSync(join, otherTypes, OPTIONS))
        .isInstanceOfSatisfying(BoltException.class, e -> {
          assertThat(e.status()).isEqualTo(ResponseStatus.SERVER_DESERIAL_EXCEPTION);
          assertThat(e.remoteMessage()).contains("method join of com.example.sofa.hessian.GreetService:1.0 takes "
              + "[java.lang.String, int], but the request declares the argument types \"[java.lang.String, long]\"");
        });

    // the same hand-written envelope with join's own types is served: the refusals above are about the mismatch
    byte[] same = sofaRequest("join", List.of("java.lang.String", "int"), out -> {
      out.writeString("a");
      out.writeInt(7);
    });
    assertThat(channel.invokeSync(join, same, OPTIONS)).isEqualTo("a:7");
    assertThat(client.connections()).hasSize(1);
  }

  // -------------------------------------------------------------------------------------------- seeds

  /** A valid request body of one method, and the descriptor that sends it as raw content. */
  @SuppressWarnings("ArrayRecordComponent") // never compared
  private record Seed(String name, MethodDescriptor<byte[], ?> raw, byte[] body, int argsStart, int propsAt) {}

  /** One fuzz case: what was done to which seed, and the body to send. */
  @SuppressWarnings("ArrayRecordComponent") // never compared
  private record Case(int index, long caseSeed, Seed from, String mutations, byte[] body) {
    @Override
    public String toString() {
      byte[] shown = body.length <= 96 ? body : Arrays.copyOf(body, 96);
      return "case " + index + " (case seed " + caseSeed + ", run seed " + SEED + ", " + from.name() + ": " + mutations
          + "; " + body.length + " bytes " + HexFormat.of().formatHex(shown) + (shown == body ? "" : "…") + ")";
    }
  }

  private static List<Seed> seeds() {
    List<Seed> seeds = new ArrayList<>();
    Map<String, Integer> counts = new LinkedHashMap<>();
    counts.put("", 0);
    counts.put("big", Integer.MAX_VALUE);
    seeds.add(seed("greet(full)", GreetServiceBolt.METHOD_GREET, new GreetServiceBolt.GreetRequest(Greetings.full())));
    seeds.add(seed("greet(nulls)", GreetServiceBolt.METHOD_GREET,
        new GreetServiceBolt.GreetRequest(new Greeting(null, 0, 0L, 0.0, false, null, null, null, null))));
    seeds.add(seed("greet(other)", GreetServiceBolt.METHOD_GREET, new GreetServiceBolt.GreetRequest(
        new Greeting("x".repeat(40), -1, Long.MIN_VALUE, Double.NaN, false, List.of(), counts, new Person(null, -5),
            new byte[300]))));
    seeds.add(seed("greet(null)", GreetServiceBolt.METHOD_GREET, new GreetServiceBolt.GreetRequest(null)));
    seeds.add(seed("join", GreetServiceBolt.METHOD_JOIN, new GreetServiceBolt.JoinRequest("a", 7)));
    seeds.add(seed("join(other)", GreetServiceBolt.METHOD_JOIN,
        new GreetServiceBolt.JoinRequest("Zoë 🚀 日本", -70_000)));
    seeds.add(seed("pings", GreetServiceBolt.METHOD_PINGS, new GreetServiceBolt.PingsRequest("fuzz")));
    seeds.add(seed("whoami", GreetServiceBolt.METHOD_WHOAMI, new GreetServiceBolt.WhoamiRequest()));
    seeds.add(seed("refuse", GreetServiceBolt.METHOD_REFUSE, new GreetServiceBolt.RefuseRequest("no")));
    return seeds;
  }

  private static <Q> Seed seed(String name, MethodDescriptor<Q, ?> method, Q request) {
    byte[] body = encode(method, request);
    ByteBuf in = Unpooled.wrappedBuffer(body);
    try {
      new HessianReader(in).skipValue(); // the SofaRequest
      int argsStart = in.readerIndex();
      int propsAt = -1;
      for (int i = 0; i < argsStart && propsAt < 0; i++) {
        propsAt = body[i] == 'M' ? i : -1;
      }
      return new Seed(name, raw(method), body, argsStart, propsAt);
    } finally {
      in.release();
    }
  }

  private static <Q> byte[] encode(MethodDescriptor<Q, ?> method, Q request) {
    ByteBuf out = Unpooled.buffer();
    try {
      method.requestMarshaller().write(request, out);
      return ByteBufUtil.getBytes(out);
    } finally {
      out.release();
    }
  }

  /**
   * {@code typed} with its request sent as raw content: SOFARPC's request className and the same header (which
   * the server dispatches on), and the generated response marshaller, which reads a failure the answer carries
   * into a SERVER_EXCEPTION (with a raw answer a handler's failure would look like a success).
   */
  private static <R> MethodDescriptor<byte[], R> raw(MethodDescriptor<?, R> typed) {
    return MethodDescriptor.newBuilder(RawBytesMarshaller.withCodecId(SofaRpc.HESSIAN2), typed.responseMarshaller())
        .serviceName(typed.serviceName())
        .serviceVersion(typed.serviceVersion())
        .methodName(typed.methodName())
        .wireName(SofaRpc.REQUEST_CLASS)
        .responseClassName(typed.responseClassName())
        .requestHeaders(typed.requestHeaders())
        .timeoutMillis(OPTIONS.timeoutMillis())
        .build();
  }

  /** A SofaRequest for GreetService's {@code method} declaring {@code argSigs}, then what {@code args} writes. */
  private static byte[] sofaRequest(String method, List<String> argSigs, Consumer<HessianWriter> args) {
    HessianType<List<String>> envelope = new HessianType<>() {
      @Override
      public HessianClass hessianClass() {
        return HessianClass.of(SofaRpc.REQUEST_CLASS, "targetAppName", "methodName", "targetServiceUniqueName",
            "requestProps", "methodArgSigs");
      }

      @Override
      public void writeFields(HessianWriter out, List<String> sigs) {
        out.writeNull();
        out.writeString(method);
        out.writeString("com.example.sofa.hessian.GreetService:1.0");
        out.writeMap("", Map.of("protocol", "bolt"), HessianWriter::writeString, HessianWriter::writeString);
        out.writeList("[string", sigs, HessianWriter::writeString);
      }

      @Override
      public List<String> readFields(HessianReader in, HessianClass sent) {
        throw new UnsupportedOperationException("only written");
      }
    };
    ByteBuf out = Unpooled.buffer();
    try {
      HessianWriter writer = HessianWriter.to(out);
      writer.writeObject(envelope, argSigs);
      args.accept(writer);
      return ByteBufUtil.getBytes(out);
    } finally {
      out.release();
    }
  }

  /** The CPU time of this JVM so far (all threads: the test's, the server's and the client's). */
  private static Duration cpuTime() {
    return ProcessHandle.current().info().totalCpuDuration().orElse(Duration.ZERO);
  }

  // ---------------------------------------------------------------------------------------- mutations

  private static Case mutate(int index, long caseSeed, List<Seed> seeds) {
    Random r = new Random(caseSeed);
    Seed from = seeds.get(r.nextInt(seeds.size()));
    byte[] body = from.body();
    StringBuilder done = new StringBuilder();
    int rounds = 1 + (r.nextInt(4) == 0 ? r.nextInt(3) : 0);
    for (int round = 0; round < rounds; round++) {
      if (round > 0) {
        done.append(", ");
      }
      int kind = r.nextInt(10);
      switch (kind) {
        case 0 -> {
          int flips = 1 + r.nextInt(r.nextBoolean() ? 2 : 8);
          body = body.clone();
          for (int f = 0; f < flips && body.length > 0; f++) {
            int at = at(r, body.length, from, false);
            body[at] = (byte) (body[at] ^ (1 << r.nextInt(8)));
          }
          done.append("flipped ").append(flips).append(" bits");
        }
        case 1 -> {
          int writes = 1 + r.nextInt(4);
          body = body.clone();
          for (int w = 0; w < writes && body.length > 0; w++) {
            int at = at(r, body.length, from, false);
            body[at] = r.nextBoolean() ? INTERESTING[r.nextInt(INTERESTING.length)] : (byte) r.nextInt(256);
            done.append(w == 0 ? "overwrote " : " ").append(at);
          }
        }
        case 2 -> {
          byte[] run = new byte[1 + r.nextInt(16)];
          for (int b = 0; b < run.length; b++) {
            run[b] = r.nextBoolean() ? INTERESTING[r.nextInt(INTERESTING.length)] : (byte) r.nextInt(256);
          }
          int at = at(r, body.length, from, true);
          body = insert(body, at, run);
          done.append("inserted ").append(run.length).append(" bytes at ").append(at);
        }
        case 3 -> {
          int at = at(r, body.length, from, true);
          int length = Math.min(body.length - at, 1 + r.nextInt(r.nextBoolean() ? 4 : 32));
          body = delete(body, at, length);
          done.append("deleted ").append(length).append(" bytes at ").append(at);
        }
        case 4 -> {
          int length = at(r, body.length, from, true);
          body = Arrays.copyOf(body, length);
          done.append("truncated to ").append(length);
        }
        case 5 -> {
          int start = r.nextInt(body.length + 1);
          int length = Math.min(body.length - start, 1 + r.nextInt(64));
          byte[] slice = Arrays.copyOfRange(body, start, start + length);
          int times = r.nextInt(8) == 0 ? 1 + r.nextInt(400) : 1 + r.nextInt(3); // some over 16 KiB: not on the IO thread
          int at = r.nextInt(body.length + 1);
          body = insert(body, at, repeat(slice, times));
          done.append("duplicated ").append(length).append(" bytes from ").append(start).append(' ').append(times)
              .append("x at ").append(at);
        }
        case 6 -> {
          body = hugeLength(body, r, done);
        }
        case 7 -> {
          Seed other = seeds.get(r.nextInt(seeds.size()));
          int cut = r.nextInt(body.length + 1);
          int otherCut = r.nextInt(other.body().length + 1);
          byte[] spliced = Arrays.copyOf(body, cut + other.body().length - otherCut);
          System.arraycopy(other.body(), otherCut, spliced, cut, other.body().length - otherCut);
          body = spliced;
          done.append("spliced at ").append(cut).append(" with ").append(other.name()).append(" from ").append(otherCut);
        }
        case 8 -> {
          int at = switch (r.nextInt(3)) {
            case 0 -> from.argsStart(); // where the arguments are read
            case 1 -> from.propsAt(); // requestProps: skipped, not read
            default -> r.nextInt(body.length + 1);
          };
          at = Math.max(0, Math.min(at, body.length));
          byte[] nesting = nesting(r, done);
          boolean replace = r.nextBoolean();
          body = replace ? insert(Arrays.copyOf(body, at), at, nesting) : insert(body, at, nesting);
          done.append(replace ? " ending the body at " : " inserted at ").append(at);
        }
        default -> {
          // an interesting token in place of one byte
          body = body.clone();
          int at = body.length == 0 ? 0 : at(r, body.length, from, false);
          if (body.length > 0) {
            body[at] = INTERESTING[r.nextInt(INTERESTING.length)];
          }
          done.append("token at ").append(at);
        }
      }
    }
    return new Case(index, caseSeed, from, done.toString(), body);
  }

  /**
   * Where to mutate a body of {@code length} bytes ({@code orEnd}: up to and including its end): half the time in
   * the arguments (most of a body is its SofaRequest, where nearly every mutation makes the request undecodable),
   * else anywhere.
   */
  private static int at(Random r, int length, Seed from, boolean orEnd) {
    int bound = orEnd ? length + 1 : length;
    int args = Math.min(from.argsStart(), bound - 1);
    return r.nextBoolean() && args >= 0 ? args + r.nextInt(bound - args) : r.nextInt(bound);
  }

  /** A length prefix of the body (or one inserted) set to a huge or negative value. */
  private static byte[] hugeLength(byte[] body, Random r, StringBuilder done) {
    List<Integer> prefixes = new ArrayList<>();
    for (int i = 0; i < body.length; i++) {
      int b = body[i] & 0xff;
      if (b == 'S' || b == 's' || b == 'B' || b == 'b' || b == 'l' || b == 0x6e || b == 'I' || b == 'R') {
        prefixes.add(i);
      }
    }
    byte[] out = body.clone();
    if (!prefixes.isEmpty() && r.nextInt(4) != 0) {
      int at = prefixes.get(r.nextInt(prefixes.size()));
      int tag = out[at] & 0xff;
      int width = tag == 'l' || tag == 'I' || tag == 'R' ? 4 : tag == 0x6e ? 1 : 2;
      long value = switch (r.nextInt(4)) {
        case 0 -> -1L;
        case 1 -> width == 1 ? 0x7f : width == 2 ? 0x7fff : Integer.MAX_VALUE;
        case 2 -> width == 4 ? Integer.MIN_VALUE : 0x80;
        default -> r.nextLong();
      };
      for (int k = 0; k < width && at + 1 + k < out.length; k++) {
        out[at + 1 + k] = (byte) (value >>> (8 * (width - 1 - k)));
      }
      done.append("length after '").append((char) tag).append("' at ").append(at).append(" set to ")
          .append(value);
      return out;
    }
    byte[][] tokens = {
        {'S', (byte) 0xff, (byte) 0xff}, {'B', (byte) 0xff, (byte) 0xff}, {'V', 'l', 0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff},
        {'V', 0x6e, (byte) 0xff}, {'v', (byte) 0x90, (byte) 0xd7, (byte) 0xff, (byte) 0xff},
        {'R', 0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff}, {0x4b, (byte) 0xff, (byte) 0xff},
        {'o', (byte) 0xd7, (byte) 0xff, (byte) 0xff}, {'O', (byte) 0xd7, (byte) 0xff, (byte) 0xff},
        {'s', (byte) 0xff, (byte) 0xff, 0x1f}, {0x1f, 'a'}};
    byte[] token = tokens[r.nextInt(tokens.length)];
    int at = r.nextInt(body.length + 1);
    done.append("huge-length token ").append(HexFormat.of().formatHex(token)).append(" at ").append(at);
    return insert(body, at, token);
  }

  /** Deep nesting or too many definitions: lists, maps, class definitions with huge field counts. */
  private static byte[] nesting(Random r, StringBuilder done) {
    int[] depths = {63, 64, 65, 66, 200, 5_000, 20_000};
    int depth = depths[r.nextInt(depths.length)];
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    switch (r.nextInt(7)) {
      case 0 -> {
        out.writeBytes(repeat(new byte[] {'V'}, depth));
        done.append(depth).append(" x 'V'");
      }
      case 1 -> {
        out.writeBytes(repeat(new byte[] {'M'}, depth));
        done.append(depth).append(" x 'M'");
      }
      case 2 -> {
        out.writeBytes(repeat(new byte[] {'V', 0x6e, 0x01}, depth));
        done.append(depth).append(" x one-element lists");
      }
      case 3 -> {
        out.writeBytes(repeat(new byte[] {'M', 0x01, 'k'}, depth)); // a map whose value is the next map
        done.append(depth).append(" x one-entry maps");
      }
      case 4 -> {
        // a definition of a huge number of fields, then an instance of it
        int fields = r.nextBoolean() ? 1_025 : Integer.MAX_VALUE;
        out.writeBytes(new byte[] {'O', (byte) 0x91, 'X', 'I'});
        out.writeBytes(new byte[] {(byte) (fields >>> 24), (byte) (fields >>> 16), (byte) (fields >>> 8), (byte) fields});
        out.writeBytes(repeat(new byte[] {0x01, 'f'}, r.nextInt(50)));
        done.append("a definition of ").append(fields).append(" fields");
      }
      case 5 -> {
        // more class definitions than a stream may hold
        int count = r.nextBoolean() ? 1_025 : 1_023;
        out.writeBytes(repeat(new byte[] {'O', (byte) 0x91, 'X', (byte) 0x91, 0x01, 'f'}, count));
        out.writeBytes(new byte[] {'o', (byte) 0x90, 'N'});
        done.append(count).append(" class definitions");
      }
      default -> {
        // objects nested through a one-field class
        out.writeBytes(new byte[] {'O', (byte) 0x91, 'X', (byte) 0x91, 0x01, 'f'});
        out.writeBytes(repeat(new byte[] {'o', (byte) 0x90}, depth));
        done.append(depth).append(" x nested objects");
      }
    }
    return out.toByteArray();
  }

  private static byte[] insert(byte[] body, int at, byte[] run) {
    byte[] out = new byte[body.length + run.length];
    System.arraycopy(body, 0, out, 0, at);
    System.arraycopy(run, 0, out, at, run.length);
    System.arraycopy(body, at, out, at + run.length, body.length - at);
    return out;
  }

  private static byte[] delete(byte[] body, int at, int length) {
    byte[] out = new byte[body.length - length];
    System.arraycopy(body, 0, out, 0, at);
    System.arraycopy(body, at + length, out, at, body.length - at - length);
    return out;
  }

  private static byte[] repeat(byte[] run, int times) {
    byte[] out = new byte[run.length * times];
    for (int i = 0; i < times; i++) {
      System.arraycopy(run, 0, out, i * run.length, run.length);
    }
    return out;
  }
}
