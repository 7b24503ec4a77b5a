package io.boltgen.example;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.boltgen.runtime.BoltClient;
import io.boltgen.testing.ReadyProcess;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The demo client ({@code call --port N}, a process of its own) against one {@code serve} process, as a user
 * runs them from terminals: again and again, and two at once, each run passing like the first.
 */
class RepeatableDemoTest {

  private static final Duration RUN = Duration.ofSeconds(90);
  private static final SkuId PEAR = new SkuId("pear");
  private static final Pattern RESERVATION = Pattern.compile("reserve\\(pear x1 for acme\\) +-> (R-\\d+), 1 unit");

  /** The start of the demo's line for one step, as {@link DemoClient} prints it. */
  private static String line(String style, String call) {
    return String.format("%-9s %-34s -> ", style, call);
  }

  /** Asserts that {@code run} passed every step, and returns the id of the reservation it made. */
  private static String assertDemoPassed(MainProcess.Result run, int port) {
    assertThat(run.exitCode()).as("%s", run).isZero();
    assertThat(run.out()).as("%s", run)
        .contains("client calling 127.0.0.1:" + port)
        .contains(line("sync", "get(apple)") + "apple: ")
        .contains(String.format("%-9s %-34s    (returned at once: done=false)", "future", "reserve(pear x1 for acme)"))
        .contains(line("duplex", "server -> client lowStock(...)") + "the server called back over our connection: pear")
        .contains(line("callback", "watch(pear)") + "pear: ")
        .contains(line("oneway", "audit(looked around)"))
        .contains(line("error", "get(durian)") + "UnknownSkuException: no such SKU: durian")
        .contains(line("timeout", "report() [500 ms timeout]") + "TIMEOUT after ")
        .contains("all calls behaved as expected")
        .doesNotContain("unexpected");
    assertThat(run.err()).as("%s", run).doesNotContain("LEAK:").doesNotContain("\tat ");
    Matcher m = RESERVATION.matcher(run.out());
    assertThat(m.find()).as("%s", run).isTrue();
    String id = m.group(1);
    assertThat(run.out()).as("the call back names this client's own reservation; %s", run)
        .contains(" left after " + id + "\n");
    return id;
  }

  /** Waits until the server holds no pear for anyone: every demo client gave its reservation back. */
  private static void awaitPearsGivenBack(Inventory inventory) {
    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
      Stock pear = inventory.get(PEAR);
      assertThat(pear.available()).isEqualTo(3);
      assertThat(pear.reservedByCustomer()).isEmpty();
    });
  }

  @Test
  void theDemoClientPassesThreeTimesInARowAgainstOneServer() throws Exception {
    try (ReadyProcess server = ServerProcess.start();
        BoltClient observer = BoltClient.builder().build()) {
      Inventory inventory = InventoryBolt.newClient(observer.channel("127.0.0.1:" + server.port()));
      for (int run = 1; run <= 3; run++) {
        MainProcess.Result result = MainProcess.run(RUN, "call", "--port", Integer.toString(server.port()));
        assertThat(assertDemoPassed(result, server.port())).as("one server made every reservation, one a run")
            .isEqualTo("R-" + run);
        // all three pears were there for this run: the previous one gave its pear back when it exited
        assertThat(result.out()).as("%s", result).contains("pear has 2 left after R-" + run + "\n");
        awaitPearsGivenBack(inventory);
      }
      assertThat(server.stop()).as("the server exits on SIGTERM").isTrue();
    }
  }

  @Test
  void twoDemoClientsAtOnceBothPassWhileAThirdClientHoldsStock() throws Exception {
    try (ReadyProcess server = ServerProcess.start();
        BoltClient holder = ExampleMain.newClient(new RecordingStockAlerts("holder"))) {
      Inventory inventory = InventoryBolt.newClient(holder.channel("127.0.0.1:" + server.port()));
      // this client holds a pear for the whole test: what the demo clients check must not depend on it
      Reservation held = inventory.reserve(new ReservationRequest(PEAR, 1, "holder", Optional.empty()))
          .get(10, TimeUnit.SECONDS);
      MainProcess.Result first;
      MainProcess.Result second;
      String port = Integer.toString(server.port());
      try (MainProcess one = MainProcess.start("call", "--port", port);
          MainProcess other = MainProcess.start("call", "--port", port)) {
        first = one.await(RUN);
        second = other.await(RUN);
      }
      assertThat(assertDemoPassed(first, server.port())).isNotEqualTo(assertDemoPassed(second, server.port()))
          .isNotEqualTo(held.reservationId());
      // both demo clients gave their pears back when they exited; the holder, still connected, keeps its own
      await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
        Stock pear = inventory.get(PEAR);
        assertThat(pear.available()).isEqualTo(2);
        assertThat(pear.reservedByCustomer()).isEqualTo(Map.of("holder", 1L));
      });
      assertThat(server.stop()).as("the server exits on SIGTERM").isTrue();
    }
  }
}
