package io.boltgen.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.boltgen.registry.etcd.EtcdRegistry;
import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.BoltServer;
import io.boltgen.runtime.cluster.ServiceInstance;
import io.boltgen.testing.Closer;
import io.boltgen.testing.EtcdProcess;
import io.boltgen.testing.ReadyProcess;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The gateway against instances registered in a real etcd: capacity held under a burst, 503 with
 * {@code Retry-After} when every instance is full, a killed instance failing only the calls on it, instances
 * joining and leaving, and a gateway that drains its calls when it closes. Calls are made with the JDK's HTTP
 * client, as JSON.
 */
class GatewayTest {

  private static final String TARGET = "etcd:///gw.Work:1.0";

  private static EtcdProcess etcd;

  private final Closer closer = new Closer();
  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5)).build();
  private EtcdRegistry registry;
  private String prefix;
  private BoltClient client;

  @BeforeAll
  static void startEtcd() {
    etcd = EtcdProcess.start();
  }

  @AfterAll
  static void stopEtcd() {
    etcd.close();
  }

  @AfterEach
  void stop() throws Exception {
    closer.close();
  }

  /** A registry client of its own for each user, as separate processes would have. */
  private EtcdRegistry newRegistry() {
    prefix = "/gw-" + System.nanoTime();
    EtcdRegistry r = EtcdRegistry.builder().endpoints(etcd.clientUrl()).prefix(prefix)
        .leaseTtl(Duration.ofSeconds(2)).build();
    closer.track(r);
    return r;
  }

  private BoltGateway gateway(BoltClient.Builder clientBuilder) {
    client = clientBuilder.nameResolver(registry).build();
    closer.track(client);
    BoltGateway gateway = BoltGateway.builder().client(client).service(Work.class, TARGET).bind("127.0.0.1", 0)
        .drainTimeout(Duration.ofSeconds(10)).build().start();
    closer.track(gateway);
    return gateway;
  }

  private WorkNode node(int maxConcurrentCalls) {
    WorkNode node = new WorkNode();
    BoltServer server = WorkNode.start(node, registry, maxConcurrentCalls);
    closer.track(server);
    return node;
  }

  /** The port of the instance that served a {@code hold} call: its answer is {@code {"value":<port>}}. */
  private static String servedBy(HttpResponse<String> answer) {
    return answer.body().replaceAll("\\D", "");
  }

  private CompletableFuture<HttpResponse<String>> call(BoltGateway gateway, String method, int millis) {
    String path = method.equals("hold") ? WorkBolt.METHOD_HOLD.httpPath() : WorkBolt.METHOD_HOLD_IDEMPOTENT.httpPath();
    return http.sendAsync(java.net.http.HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + path))
        .timeout(Duration.ofSeconds(20)).header("Content-Type", "application/json").header("Connect-Timeout-Ms", "15000")
        .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"millis\": " + millis + "}")).build(),
        HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  private static List<HttpResponse<String>> all(List<CompletableFuture<HttpResponse<String>>> calls) throws Exception {
    List<HttpResponse<String>> answers = new ArrayList<>();
    for (CompletableFuture<HttpResponse<String>> c : calls) {
      answers.add(c.get(30, TimeUnit.SECONDS));
    }
    return answers;
  }

  @Test
  void anInstanceNeverRunsMoreThanItsMaxConcurrentCallsUnderABurstOfFourTimesThat() throws Exception {
    registry = newRegistry();
    WorkNode small = node(3);
    WorkNode large = node(5);
    BoltGateway gateway = gateway(BoltClient.builder());
    await().atMost(Duration.ofSeconds(10)).until(() -> client.instances(TARGET).size() == 2);
    assertThat(client.instances(TARGET)).extracting(ServiceInstance::maxConcurrentCalls).containsExactlyInAnyOrder(3, 5);

    List<CompletableFuture<HttpResponse<String>>> burst = new ArrayList<>();
    for (int i = 0; i < 32; i++) { // 4 x (3 + 5)
      burst.add(call(gateway, "hold", 200));
    }
    for (HttpResponse<String> answer : all(burst)) {
      assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    }
    assertThat(small.mostAtOnce.get()).isBetween(1, 3);
    assertThat(large.mostAtOnce.get()).isBetween(1, 5);
    assertThat(small.calls.get() + large.calls.get()).isEqualTo(32);
    assertThat(gateway.callsInFlight()).isZero();
  }

  @Test
  void everyInstanceFullAndTheQueueFullIsA503WithRetryAfter() throws Exception {
    registry = newRegistry();
    WorkNode only = node(1);
    BoltGateway gateway = gateway(BoltClient.builder().capacityQueue(2));
    await().atMost(Duration.ofSeconds(10)).until(() -> client.instances(TARGET).size() == 1);

    List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
    calls.add(call(gateway, "hold", 600));
    await().atMost(Duration.ofSeconds(10)).until(() -> only.running.get() == 1);
    calls.add(call(gateway, "hold", 10));
    calls.add(call(gateway, "hold", 10));
    await().atMost(Duration.ofSeconds(10)).until(() -> gateway.callsInFlight() == 3);
    HttpResponse<String> refused = call(gateway, "hold", 10).get(30, TimeUnit.SECONDS);
    assertThat(refused.statusCode()).isEqualTo(503);
    assertThat(refused.headers().firstValue("retry-after")).hasValue("1");
    assertThat(refused.body()).contains("\"code\":\"unavailable\"").contains("maxConcurrentCalls")
        .contains("capacityQueue");
    for (HttpResponse<String> answer : all(calls)) { // the held calls went out as places freed
      assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    }
    assertThat(only.mostAtOnce.get()).isEqualTo(1);
  }

  @Test
  void noInstanceIsA503WithRetryAfter() throws Exception {
    registry = newRegistry();
    BoltGateway gateway = gateway(BoltClient.builder());
    HttpResponse<String> none = call(gateway, "hold", 10).get(30, TimeUnit.SECONDS);
    assertThat(none.statusCode()).isEqualTo(503);
    assertThat(none.headers().firstValue("retry-after")).hasValue("1");
    assertThat(none.body()).contains("\"code\":\"unavailable\"").contains("lists none");
  }

  @Test
  void instancesThatJoinOrLeaveAreUsedOrDroppedWithinASecond() throws Exception {
    registry = newRegistry();
    WorkNode first = new WorkNode();
    BoltServer firstServer = WorkNode.start(first, registry, 0);
    closer.track(firstServer);
    BoltGateway gateway = gateway(BoltClient.builder());
    assertThat(call(gateway, "hold", 0).get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(200);

    WorkNode second = node(0); // returns once etcd has it
    long joined = System.nanoTime();
    await().atMost(Duration.ofSeconds(1)).pollInterval(Duration.ofMillis(10)).until(() -> {
      assertThat(call(gateway, "hold", 0).get(5, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
      return second.calls.get() > 0;
    });
    assertThat(Duration.ofNanos(System.nanoTime() - joined)).isLessThan(Duration.ofSeconds(1));

    // the first leaves: it deregisters, then keeps serving while clients move away (its drain time)
    CompletableFuture<Void> closing = CompletableFuture.runAsync(firstServer::close);
    long left = System.nanoTime();
    await().atMost(Duration.ofSeconds(1)).pollInterval(Duration.ofMillis(10))
        .until(() -> client.instances(TARGET).size() == 1);
    assertThat(Duration.ofNanos(System.nanoTime() - left)).isLessThan(Duration.ofSeconds(1));
    int firstCalls = first.calls.get();
    for (int i = 0; i < 20; i++) {
      assertThat(call(gateway, "hold", 0).get(5, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
    }
    assertThat(first.calls.get()).as("calls that reached the instance after it left").isEqualTo(firstCalls);
    closing.get(30, TimeUnit.SECONDS);
  }

  @Test
  void aKilledInstanceFailsOnlyTheCallsOnItAndIdempotentOnesAreSentAgain() throws Exception {
    registry = newRegistry();
    ReadyProcess doomed = ReadyProcess.start(ReadyProcess.java(WorkNode.class.getName(), etcd.clientUrl(),
        prefix));
    closer.track(doomed);
    WorkNode survivor = node(0);
    BoltGateway gateway = gateway(BoltClient.builder());
    await().atMost(Duration.ofSeconds(10)).until(() -> client.instances(TARGET).size() == 2);
    // the gateway sends to the doomed instance too before the calls under test start: registered is not yet
    // connected, and a balancer picks among the instances it has a connection to
    String doomedPort = Integer.toString(doomed.port());
    await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10))
        .until(() -> servedBy(call(gateway, "hold", 0).get(5, TimeUnit.SECONDS)).equals(doomedPort));
    int survivorBefore = survivor.plainCalls.get();

    // each kind as a block of its own: the client's balancer (least pending; every call here is held) then gives each
    // instance half of each kind, whatever order a block's calls arrive in; interleaved, with ties between the two
    // instances broken alike each time, each kind could fall on one instance
    List<CompletableFuture<HttpResponse<String>>> plain = new ArrayList<>();
    List<CompletableFuture<HttpResponse<String>>> idempotent = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      plain.add(call(gateway, "hold", 3_000));
    }
    await().atMost(Duration.ofSeconds(10)).until(() -> gateway.callsInFlight() == 10);
    for (int i = 0; i < 10; i++) {
      idempotent.add(call(gateway, "holdIdempotent", 3_000));
    }
    await().atMost(Duration.ofSeconds(10)).until(() -> gateway.callsInFlight() == 20 && survivor.running.get() > 0);
    doomed.kill(); // kill -9: its connections reset; its lease expires 2 s later
    List<HttpResponse<String>> after = new ArrayList<>();
    for (int i = 0; i < 10; i++) { // made after the kill: none fails
      after.add(call(gateway, "hold", 0).get(30, TimeUnit.SECONDS));
    }
    assertThat(after).allSatisfy(answer -> assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200));

    int plainAnswered = 0;
    int plainFailed = 0;
    for (HttpResponse<String> answer : all(plain)) {
      if (answer.statusCode() == 200) {
        plainAnswered++;
        assertThat(servedBy(answer)).as(answer.body()).isNotEqualTo(doomedPort);
      } else {
        plainFailed++;
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(503);
        assertThat(answer.body()).contains("\"code\":\"unavailable\"");
      }
    }
    // every plain call the survivor got was answered; those on the killed one failed, and were not sent again
    assertThat(plainAnswered + after.size()).isEqualTo(survivor.plainCalls.get() - survivorBefore);
    assertThat(plainFailed).as("plain calls that were on the killed instance").isPositive();
    assertThat(all(idempotent)).allSatisfy(answer -> assertThat(answer.statusCode())
        .as("an idempotent call on the killed instance is sent again: %s", answer.body()).isEqualTo(200));
  }

  @Test
  void theCallersDeadlineAndTraceContextGoAlong() throws Exception {
    registry = newRegistry();
    node(0);
    BoltGateway gateway = gateway(BoltClient.builder());
    String traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    HttpResponse<String> seen = http.send(java.net.http.HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + gateway.port() + WorkBolt.METHOD_CONTEXT.httpPath()))
        .timeout(Duration.ofSeconds(20)).header("Content-Type", "application/json").header("Connect-Timeout-Ms", "1500")
        .header("traceparent", traceparent).header("x-not-forwarded", "secret")
        .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"name\": \"traceparent\"}")).build(),
        HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    assertThat(seen.statusCode()).as(seen.body()).isEqualTo(200);
    String[] parts = seen.body().replaceAll("^\\{\"value\":\"|\"}$", "").split("\\|");
    assertThat(parts[0]).isEqualTo(traceparent);
    assertThat(Integer.parseInt(parts[1])).as("the timeout the instance was given").isBetween(1, 1500);

    long start = System.nanoTime();
    HttpResponse<String> late = http.send(java.net.http.HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + gateway.port() + WorkBolt.METHOD_HOLD.httpPath()))
        .timeout(Duration.ofSeconds(20)).header("Content-Type", "application/json").header("Connect-Timeout-Ms", "300")
        .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"millis\": 5000}")).build(),
        HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    assertThat(late.statusCode()).as(late.body()).isEqualTo(504);
    assertThat(late.body()).contains("\"code\":\"deadline_exceeded\"");
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(4));
  }

  @Test
  void theProgramForwardsTheServicesNamedOnItsCommandLine() throws Exception {
    registry = newRegistry();
    node(0);
    String uri = "etcd://" + URI.create(etcd.clientUrl()).getAuthority() + prefix;
    ReadyProcess program = closer.track(ReadyProcess.start(ReadyProcess.java(GatewayMain.class.getName(),
        "--registry", uri, "--host", "127.0.0.1", "--port", "0", "--service", "gw.Work:1.0")));
    HttpResponse<String> answer = http.send(java.net.http.HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + program.port() + WorkBolt.METHOD_HOLD.httpPath()))
        .timeout(Duration.ofSeconds(20)).header("Content-Type", "application/json")
        .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"millis\": 1}")).build(),
        HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    assertThat(program.log()).contains("forwarding [/gw.work.Work/hold, /gw.work.Work/holdIdempotent");
    program.signal("TERM");
    assertThat(program.waitFor(Duration.ofSeconds(30))).as("it stops on SIGTERM").isTrue();

    ReadyProcess.Launcher unknown = ReadyProcess.launcher(ReadyProcess.java(GatewayMain.class.getName(),
        "--registry", uri, "--service", "gw.Nothing:1.0"));
    assertThatThrownBy(unknown::start).hasMessageContaining("no generated service gw.Nothing:1.0 on the class path")
        .hasMessageContaining("found: gw.Work:1.0");
  }

  @Test
  void closingDrainsTheCallsInFlightAndRefusesNewOnes() throws Exception {
    registry = newRegistry();
    node(0);
    BoltGateway gateway = gateway(BoltClient.builder());
    await().atMost(Duration.ofSeconds(10)).until(() -> client.instances(TARGET).size() == 1);
    List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      calls.add(call(gateway, "hold", 1500));
    }
    await().atMost(Duration.ofSeconds(10)).until(() -> gateway.callsInFlight() == 5);
    CompletableFuture<Void> closed = CompletableFuture.runAsync(gateway::close);
    // the port stops accepting as the drain starts, while the calls in flight are still being answered
    await().atMost(Duration.ofSeconds(10)).until(() -> !accepts(gateway.port()));
    assertThat(gateway.callsInFlight()).as("still draining").isPositive();
    for (HttpResponse<String> answer : all(calls)) {
      assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    }
    closed.get(30, TimeUnit.SECONDS);
    assertThatThrownBy(() -> call(gateway, "hold", 0).get(30, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(ConnectException.class);
  }

  /** Whether a TCP connection to {@code port} on the loopback is accepted now. */
  private static boolean accepts(int port) {
    try (java.net.Socket socket = new java.net.Socket()) {
      socket.connect(new java.net.InetSocketAddress("127.0.0.1", port), 1000);
      return true;
    } catch (java.io.IOException e) {
      return false;
    }
  }
}
