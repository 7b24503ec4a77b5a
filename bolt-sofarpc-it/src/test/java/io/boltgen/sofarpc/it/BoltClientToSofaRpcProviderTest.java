package io.boltgen.sofarpc.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.boltgen.annotation.BoltCallback;
import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.sofarpc.it.hessian.GreetService;
import io.boltgen.sofarpc.it.hessian.GreetServiceAsync;
import io.boltgen.sofarpc.it.hessian.GreetServiceAsyncBolt;
import io.boltgen.sofarpc.it.hessian.GreetServiceBolt;
import io.boltgen.sofarpc.it.hessian.GreetServiceImpl;
import io.boltgen.sofarpc.it.hessian.Greeting;
import io.boltgen.sofarpc.it.hessian.GreetingRefused;
import io.boltgen.sofarpc.it.hessian.Mood;
import io.boltgen.sofarpc.it.hessian.Moments;
import io.boltgen.sofarpc.it.hessian.Person;
import io.boltgen.sofarpc.it.hessian.Tables;
import io.boltgen.sofarpc.it.own.EchoServiceOwnClasses;
import io.boltgen.sofarpc.it.own.EchoServiceOwnClassesBolt;
import io.boltgen.sofarpc.it.own.OwnClassesEcho;
import io.boltgen.sofarpc.it.proto.EchoReply;
import io.boltgen.sofarpc.it.proto.EchoRequest;
import io.boltgen.sofarpc.it.proto.EchoService;
import io.boltgen.sofarpc.it.proto.EchoServiceAsync;
import io.boltgen.sofarpc.it.proto.EchoServiceAsyncBolt;
import io.boltgen.sofarpc.it.proto.EchoServiceBolt;
import io.boltgen.sofarpc.it.proto.EchoServiceImpl;
import io.boltgen.sofarpc.it.proto.Numbers;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Generated boltgen clients against an unchanged SOFARPC 5.13.2 provider (its own JVM): both serializers, the
 * four call styles, a declared exception, an unknown method and a timeout.
 */
@Timeout(120)
class BoltClientToSofaRpcProviderTest {

  private static SofaRpcPeer provider;
  private static BoltClient client;

  @BeforeAll
  static void start() throws Exception {
    provider = SofaRpcPeer.providerOnFreePort("--id", "sofa-1");
    client = BoltClient.builder().build();
  }

  @AfterAll
  static void stop() throws Exception {
    if (client != null) {
      client.close();
    }
    if (provider != null) {
      provider.close();
    }
  }

  // ------------------------------------------------------------------ Hessian2

  @Test
  void hessianSyncCallsCarryEveryFieldBothWays() {
    GreetService greet = GreetServiceBolt.newClient(client, provider.address());
    Greeting sent = Greetings.full();
    Greetings.assertGreeted(greet.greet(sent), sent);
    assertThat(greet.join("a", 7)).isEqualTo("a:7");
    assertThat(greet.whoami()).isEqualTo("sofa-1");
    // chars travel as strings of one character; the provider reads them into its char parameters
    assertThat(greet.initials('\u00e9', '\u4e2d')).isEqualTo("\u00e9\u4e2d!");
    assertThat(greet.initials('a', null)).isEqualTo("a-!");
  }

  @Test
  void hessianUndeclaredJdkExceptionArrivesNamingItsClass() {
    GreetService greet = GreetServiceBolt.newClient(client, provider.address());
    assertThatThrownBy(() -> greet.fail("state")).isInstanceOfSatisfying(BoltException.class, e -> {
      assertThat(e.remoteClassName()).isEqualTo("java.lang.IllegalStateException");
      assertThat(e.remoteMessage()).isEqualTo("state");
    });
  }

  @Test
  void hessianNullsAndEmptiesArriveAsTheProviderSeesThem() {
    GreetService greet = GreetServiceBolt.newClient(client, provider.address());
    Greeting sent = new Greeting(null, 0, 0, 0, false, null, null, null, null);
    Greeting answer = greet.greet(sent);
    assertThat(answer.name()).isEqualTo("hello null");
    assertThat(answer.tags()).containsExactly("seen");
    assertThat(answer.counts()).containsExactly(java.util.Map.entry("server", 1));
    assertThat(answer.from()).isNull();
    assertThat(answer.blob()).isNull();
  }

  @Test
  void hessianFutureAndCallbackCalls() throws Exception {
    GreetServiceAsync async = GreetServiceAsyncBolt.newClient(client, provider.address());
    Greeting sent = Greetings.full();
    Greetings.assertGreeted(async.greetFuture(sent).get(10, TimeUnit.SECONDS), sent);
    CompletableFuture<String> joined = new CompletableFuture<>();
    async.joinWithCallback("b", 9, callbackInto(joined));
    assertThat(joined.get(10, TimeUnit.SECONDS)).isEqualTo("b:9");
  }

  @Test
  void hessianOnewayPingsArrive() {
    GreetService greet = GreetServiceBolt.newClient(client, provider.address());
    String text = "ping-" + UUID.randomUUID();
    for (int i = 0; i < 3; i++) {
      greet.ping(text);
    }
    await().atMost(Duration.ofSeconds(10)).until(() -> greet.pings(text) == 3);
  }

  @Test
  void hessianDeclaredExceptionArrivesAsItsOwnClassWithItsFields() {
    GreetService greet = GreetServiceBolt.newClient(client, provider.address());
    assertThatThrownBy(() -> greet.refuse("no way")).isInstanceOfSatisfying(GreetingRefused.class, e -> {
      assertThat(e).hasMessage("refused: no way");
      assertThat(e.code()).isEqualTo(409);
      assertThat(e.reason()).isEqualTo("customer no way is blocked");
      assertThat(e.getCause()).isInstanceOf(BoltException.class).hasMessageContaining(provider.address().toString());
    });
    GreetServiceAsync async = GreetServiceAsyncBolt.newClient(client, provider.address());
    assertThatThrownBy(() -> async.refuseFuture("later").get(10, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class).cause().isInstanceOfSatisfying(GreetingRefused.class, e -> {
          assertThat(e).hasMessage("refused: later");
          assertThat(e.code()).isEqualTo(409);
          assertThat(e.reason()).isEqualTo("customer later is blocked");
        });
  }

  @Test
  @SuppressWarnings("JavaUtilDate") // a DTO's Date is what is tested
  void hessianJdkValueTypesAndSetsTravelBothWays() {
    GreetService greet = GreetServiceBolt.newClient(client, provider.address());
    Moments sent = new Moments(new BigDecimal("-12.3400"), Instant.ofEpochSecond(-1, 999_999_999),
        Duration.ofSeconds(-5, 7), LocalDate.of(2024, 2, 28), LocalTime.of(22, 59, 59, 1),
        LocalDateTime.of(1999, 12, 31, 23, 0, 0, 42), new LinkedHashSet<>(List.of("zeta", "alpha")), new Date(-1),
        new Timestamp(-1_001), new BigInteger("-123456789012345678901234567890"), new UUID(-1, Long.MIN_VALUE));
    // moved on by SOFARPC's provider: every value arrived as sent, and came back as it answered
    assertThat(greet.shift(sent)).isEqualTo(new Moments(new BigDecimal("-24.6800"), Instant.ofEpochSecond(0, 999_999_999),
        Duration.ofSeconds(-5, 1_000_007), LocalDate.of(2024, 2, 29), LocalTime.of(23, 59, 59, 1),
        LocalDateTime.of(2000, 1, 1, 23, 0, 0, 42), Set.of("zeta", "alpha", "seen"), new Date(999),
        new Timestamp(-1), new BigInteger("-123456789012345678901234567889"), new UUID(-1, Long.MIN_VALUE + 1)));
    assertThat(greet.shift(sent).labels()).containsExactly("zeta", "alpha", "seen");
    Moments nulls = new Moments(null, null, null, null, null, null, null, null, null, null, null);
    assertThat(greet.shift(nulls)).isEqualTo(nulls);
  }

  @Test
  @SuppressWarnings("JavaUtilDate") // a DTO's Date is what is tested
  void hessianArraysOfEveryKindAndCollectionsInCollectionsTravelBothWays() {
    GreetService greet = GreetServiceBolt.newClient(client, provider.address());
    Tables sent = new Tables(new int[] {Integer.MIN_VALUE, -1, Integer.MAX_VALUE}, new long[] {Long.MIN_VALUE, 42},
        new boolean[] {true, false}, new short[] {Short.MIN_VALUE, 300}, new char[] {'a', '\u00e9', '\u4e2d'},
        new float[] {0.5f, Float.MAX_VALUE}, new double[] {0.1, -1e300}, new Integer[] {7, null, -7},
        new String[] {"x", null, ""}, new byte[][] {{1, 2}, {}, null}, new Person[] {new Person("Ada", 36), null},
        new Mood[] {Mood.CROSS, null, Mood.GLAD}, new BigDecimal[] {new BigDecimal("-1.50"), null},
        new Date[] {new Date(-1), new Date(1_733_000_000_123L)}, new int[][] {{1, 2}, {}, null},
        java.util.Arrays.asList(List.of("a", "b"), List.of(), null), Map.of("k", List.of(1, -1)));
    // turned around by SOFARPC's provider: every array arrived as sent (argument included) and came back
    Tables turned = greet.turn(sent, new int[] {5, -5});
    assertThat(turned).usingRecursiveComparison().isEqualTo(new GreetServiceImpl("expected").turn(sent, new int[] {5, -5}));
    assertThat(turned.ints()).containsExactly(Integer.MAX_VALUE, -1, Integer.MIN_VALUE, 5, -5);
    assertThat(turned.letters()).containsExactly('\u4e2d', '\u00e9', 'a');
    assertThat(turned.moods()).containsExactly(Mood.GLAD, null, Mood.CROSS);
    assertThat(turned.grid()).isDeepEqualTo(new int[][] {null, {}, {1, 2}});
    assertThat(turned.rows()).containsExactly(null, List.of(), List.of("a", "b"));
    assertThat(turned.byName()).containsExactly(Map.entry("k", List.of(1, -1)));
    Tables empty = new Tables(new int[0], new long[0], new boolean[0], new short[0], new char[0], new float[0],
        new double[0], new Integer[0], new String[0], new byte[0][], new Person[0], new Mood[0], new BigDecimal[0],
        new Date[0], new int[0][], List.of(), Map.of());
    assertThat(greet.turn(empty, null)).usingRecursiveComparison().isEqualTo(empty);
    Tables nulls = new Tables(null, null, null, null, null, null, null, null, null, null, null, null, null, null, null,
        null, null);
    assertThat(greet.turn(nulls, new int[] {1})).usingRecursiveComparison().isEqualTo(nulls);
  }

  @Test
  void hessianUnknownMethodIsTheProvidersFailure() {
    GreetServiceAsync async = GreetServiceAsyncBolt.newClient(client, provider.address());
    assertThatThrownBy(() -> async.missing("x")).isInstanceOfSatisfying(BoltException.class, e -> {
      assertThat(e.status()).isEqualTo(ResponseStatus.SERVER_EXCEPTION);
      assertThat(e.getMessage()).contains("Cannot find invoke method").contains("missing");
    });
  }

  @Test
  void hessianCallTimesOut() {
    GreetService greet = GreetServiceBolt.newClient(client, provider.address());
    GreetService hurried = GreetServiceBolt.newClient(client, provider.address())
        .withTimeout(Duration.ofMillis(300));
    assertThatThrownBy(() -> hurried.slow(2000)).isInstanceOfSatisfying(BoltException.class,
        e -> assertThat(e.status()).isEqualTo(ResponseStatus.TIMEOUT));
    assertThat(greet.slow(1)).isEqualTo("slept 1"); // the connection still serves
  }

  // ------------------------------------------------------------------ protobuf

  @Test
  void protobufSyncFutureAndCallbackCalls() throws Exception {
    EchoService echo = EchoServiceBolt.newClient(client, provider.address());
    assertThat(echo.echo(new EchoRequest("ab", 3))).isEqualTo(new EchoReply("ababab", 6, "sofa-1"));
    EchoServiceAsync async = EchoServiceAsyncBolt.newClient(client, provider.address());
    assertThat(async.echoFuture(new EchoRequest("Zoë 🚀", 2)).get(10, TimeUnit.SECONDS))
        .isEqualTo(new EchoReply("Zoë 🚀Zoë 🚀", 12, "sofa-1"));
    CompletableFuture<EchoReply> counted = new CompletableFuture<>();
    async.pingsWithCallback(new EchoRequest("never-pinged-" + UUID.randomUUID(), 0), callbackInto(counted));
    // proto3: the provider's empty text is not on the wire, and an absent string reads as null
    assertThat(counted.get(10, TimeUnit.SECONDS)).isEqualTo(new EchoReply(null, 0, "sofa-1"));
  }

  @Test
  void protobufEveryIntegerTypeKeepsItsValueBothWays() {
    EchoService echo = EchoServiceBolt.newClient(client, provider.address());
    Map<Long, Long> byKey = new LinkedHashMap<>();
    byKey.put(-42L, 1L);
    byKey.put(Long.MAX_VALUE, -1L);
    Numbers n = new Numbers(Integer.MIN_VALUE, -42, -1, -1, -42, Long.MIN_VALUE, Integer.MIN_VALUE, 1, -2147483607,
        Long.MAX_VALUE, List.of(-42, Integer.MAX_VALUE), byKey);
    Numbers answer = echo.negate(n);
    // the provider's protobuf-java classes read each field as sent and negated it: sint32 -42 came back as 42
    assertThat(answer).isEqualTo(EchoServiceImpl.negated(n));
    assertThat(answer.sint32()).isEqualTo(42);
    assertThat(Integer.toUnsignedString(answer.uint32())).isEqualTo("1");
    assertThat(echo.negate(answer)).isEqualTo(n);
    // all defaults: the provider refuses a request with unknown fields, so it got exactly its default message
    Numbers zero = new Numbers(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, List.of(), Map.of());
    assertThat(echo.negate(zero)).isEqualTo(zero);
  }

  @Test
  void protobufWithTheProvidersOwnClasses() {
    EchoServiceOwnClasses echo = EchoServiceOwnClassesBolt.newClient(client, provider.address());
    com.example.sofa.proto.EchoReply reply =
        echo.echo(com.example.sofa.proto.EchoRequest.newBuilder().setText("ab").setTimes(3).build());
    assertThat(reply).isEqualTo(
        com.example.sofa.proto.EchoReply.newBuilder().setText("ababab").setLength(6).setServer("sofa-1").build());
    com.example.sofa.proto.Numbers n = com.example.sofa.proto.Numbers.newBuilder().setSint32(-42)
        .setUint64(-1).setFixed32(Integer.MIN_VALUE).setSfixed64(Long.MIN_VALUE).addSint32S(-42)
        .putUint64BySint64(-42, -1).build();
    assertThat(echo.negate(n)).isEqualTo(OwnClassesEcho.negated(n));
    assertThat(echo.negate(com.example.sofa.proto.Numbers.getDefaultInstance()))
        .isEqualTo(com.example.sofa.proto.Numbers.getDefaultInstance());
    assertThatThrownBy(() -> echo.refuse(com.example.sofa.proto.EchoRequest.newBuilder().setText("no").build()))
        .hasMessageContaining("refused: no");
  }

  @Test
  void protobufAllDefaultRequestIsAccepted() {
    // encodes to no bytes, which SOFARPC refuses; boltgen sends times = 0, which parses to the default message
    EchoService echo = EchoServiceBolt.newClient(client, provider.address());
    assertThat(echo.echo(new EchoRequest(null, 0))).isEqualTo(new EchoReply(null, 0, "sofa-1"));
  }

  @Test
  void protobufOnewayPingsArrive() {
    EchoService echo = EchoServiceBolt.newClient(client, provider.address());
    String text = "ping-" + UUID.randomUUID();
    for (int i = 0; i < 3; i++) {
      echo.ping(new EchoRequest(text, 0));
    }
    await().atMost(Duration.ofSeconds(10)).until(() -> echo.pings(new EchoRequest(text, 0)).length() == 3);
  }

  @Test
  void protobufExceptionArrivesWithItsMessage() {
    // SOFARPC's protobuf serializer carries only the message of a provider's exception
    EchoService echo = EchoServiceBolt.newClient(client, provider.address());
    assertThatThrownBy(() -> echo.refuse(new EchoRequest("no way", 0))).isInstanceOfSatisfying(BoltException.class,
        e -> {
          assertThat(e.status()).isEqualTo(ResponseStatus.SERVER_EXCEPTION);
          assertThat(e.remoteMessage()).isEqualTo("refused: no way");
        });
  }

  @Test
  void protobufUnknownMethodIsRefusedByTheProvider() {
    EchoServiceAsync async = EchoServiceAsyncBolt.newClient(client, provider.address());
    assertThatThrownBy(() -> async.missing(new EchoRequest("x", 1))).isInstanceOfSatisfying(BoltException.class,
        e -> {
          assertThat(e.status()).isEqualTo(ResponseStatus.SERVER_DESERIAL_EXCEPTION);
          assertThat(e.getMessage()).contains("missing");
        });
  }

  @Test
  void protobufCallTimesOut() {
    EchoService hurried = EchoServiceBolt.newClient(client, provider.address())
        .withTimeout(Duration.ofMillis(300));
    assertThatThrownBy(() -> hurried.slow(new EchoRequest("z", 2000))).isInstanceOfSatisfying(BoltException.class,
        e -> assertThat(e.status()).isEqualTo(ResponseStatus.TIMEOUT));
  }

  static <T> BoltCallback<T> callbackInto(CompletableFuture<T> future) {
    return new BoltCallback<>() {
      @Override
      public void onResponse(T result) {
        future.complete(result);
      }

      @Override
      public void onError(Throwable error) {
        future.completeExceptionally(error);
      }
    };
  }
}
