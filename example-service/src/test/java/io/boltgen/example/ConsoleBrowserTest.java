package io.boltgen.example;

import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.runtime.BoltServer;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The web console in a real headless browser (Debian's {@code chromium}, driven through its
 * {@code chromedriver}): it lists the example's methods from {@code /openapi.json}, pre-fills a request,
 * sends it and shows the answer, shows an error's status and body, and makes a curl command. With
 * {@code -Dboltgen.updateScreenshot=true} it also replaces {@code docs/img/console.png}.
 */
class ConsoleBrowserTest {

  private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

  private ExecutorService reservationWork;
  private BoltServer server;
  private ChromeDriverService driverService;
  private WebDriver browser;

  @BeforeEach
  void start() throws Exception {
    assertThat(CHROMIUM).as("Debian's chromium (install it: apt-get install chromium chromium-driver,"
        + " or run scripts/test.sh, which does)").isExecutable();
    assertThat(CHROMEDRIVER).as("Debian's chromedriver (install it: apt-get install chromium-driver)").isExecutable();
    reservationWork = Executors.newSingleThreadExecutor();
    server = ExampleMain.startServer(0, reservationWork, null);
    driverService = new ChromeDriverService.Builder()
        .usingDriverExecutable(new File(CHROMEDRIVER.toString()))
        .usingAnyFreePort()
        .withTimeout(Duration.ofSeconds(30))
        .build();
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
        "--no-first-run", "--disable-extensions", "--window-size=1400,1000");
    browser = new ChromeDriver(driverService, options);
    browser.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30)).scriptTimeout(Duration.ofSeconds(30));
  }

  @AfterEach
  void stop() {
    if (browser != null) {
      browser.quit();
    }
    if (driverService != null) {
      driverService.stop();
    }
    if (server != null) {
      server.close();
    }
    reservationWork.shutdownNow();
  }

  private WebDriverWait waiting() {
    return new WebDriverWait(browser, Duration.ofSeconds(20));
  }

  @Test
  void listsTheMethodsSendsACallAndShowsTheAnswer() throws Exception {
    String origin = "http://127.0.0.1:" + server.port();
    browser.get(origin + "/");
    waiting().until(b -> b.findElements(By.cssSelector("#methods li.rpc")).size() == 8);
    assertThat(browser.findElements(By.cssSelector("#methods li.rpc")))
        .extracting(e -> e.getAttribute("data-path"))
        .containsExactly("/demo.inventory.Inventory/get", "/demo.inventory.Inventory/reserve",
            "/demo.inventory.Inventory/watch", "/demo.inventory.Inventory/audit", "/demo.inventory.Inventory/report",
            "/demo.inventory.Inventory/browse", "/demo.inventory.Inventory/tally", "/demo.inventory.Inventory/lookup");

    browser.findElement(By.cssSelector("li.rpc[data-path='/demo.inventory.Inventory/get']")).click();
    WebElement request = browser.findElement(By.id("request"));
    waiting().until(b -> request.getDomProperty("value").contains("\"sku\""));

    request.clear();
    request.sendKeys("{\"sku\": {\"value\": \"apple\"}}");
    browser.findElement(By.id("send")).click();
    waiting().until(b -> b.findElement(By.id("status")).getText().startsWith("200"));
    String answer = browser.findElement(By.id("response-body")).getText();
    assertThat(answer).contains("\"available\": 12").contains("\"value\": \"apple\"");
    assertThat(browser.findElement(By.id("elapsed")).getText()).endsWith(" ms");
    assertThat(browser.findElement(By.id("response-headers")).getText()).contains("content-type: application/json");

    browser.findElement(By.id("copy-curl")).click();
    waiting().until(b -> b.findElement(By.id("curl")).isDisplayed());
    assertThat(browser.findElement(By.id("curl")).getText())
        .startsWith("curl -s '" + origin + "/demo.inventory.Inventory/get'")
        .contains("-H 'Content-Type: application/json'")
        .contains("-d '{\"sku\":{\"value\":\"apple\"}}'");

    screenshot();

    request.clear();
    request.sendKeys("{\"sku\": {\"value\": \"kiwi\"}}");
    browser.findElement(By.id("send")).click();
    waiting().until(b -> b.findElement(By.id("status")).getText().startsWith("400"));
    assertThat(browser.findElement(By.id("response-body")).getText())
        .contains("\"code\": \"failed_precondition\"")
        .contains("io.boltgen.example.UnknownSkuException");

    request.clear();
    request.sendKeys("{\"sku\": 5}");
    browser.findElement(By.id("send")).click();
    waiting().until(b -> b.findElement(By.id("status")).getText().startsWith("400"));
    assertThat(browser.findElement(By.id("response-body")).getText()).contains("\"code\": \"invalid_argument\"");
  }

  /**
   * Streaming methods are marked; a server stream is sent by Connect's streaming protocol, its messages shown as they
   * come and its curl command run as copied; a client stream's requests, typed as a JSON array, are sent together and
   * its curl command run as copied; a bidirectional stream is refused 505 over plain HTTP/1.1, as the note says, and
   * its copied curl command speaks HTTP/2.
   */
  @Test
  void marksStreamsAndSendsThem() throws Exception {
    String origin = "http://127.0.0.1:" + server.port();
    browser.get(origin + "/#/demo.inventory.Inventory/browse");
    waiting().until(b -> b.findElements(By.cssSelector("#methods li.rpc")).size() == 8);
    assertThat(browser.findElements(By.cssSelector("#methods li.rpc .stream")))
        .extracting(WebElement::getText).containsExactly("server stream", "client stream", "bidi stream");
    waiting().until(b -> b.findElement(By.id("method-path")).getText().endsWith("/browse"));
    assertThat(browser.findElement(By.id("request-type")).getText()).isEqualTo("application/connect+json");

    send("{\"includeEmpty\": true}", "200");
    assertThat(browser.findElement(By.id("status")).getText()).isEqualTo("200 OK, 3 messages");
    String answer = browser.findElement(By.id("response-body")).getText();
    assertThat(answer).containsSubsequence("\"value\": \"apple\"", "\"value\": \"pear\"", "\"value\": \"plum\"",
        "end of stream: {}");

    String command = copiedCurl("/browse");
    assertThat(command).startsWith("{ printf '\\000\\000\\000\\000\\025'; printf '%s' '{\"includeEmpty\":true}'; }"
        + " | curl -s '" + origin + "/demo.inventory.Inventory/browse'");
    assertThat(run(command)).containsSubsequence("\"apple\"", "\"pear\"", "\"plum\"").endsWith("{}");

    browser.findElement(By.cssSelector("li.rpc[data-path='/demo.inventory.Inventory/tally']")).click();
    waiting().until(b -> b.findElement(By.id("stream-note")).isDisplayed());
    assertThat(browser.findElement(By.id("stream-note")).getText()).startsWith("A client stream: type its requests as"
        + " a JSON array");
    assertThat(browser.findElement(By.id("request-type")).getText()).isEqualTo("application/connect+json");
    send("[{\"skus\": {\"value\": \"apple\"}}, {\"skus\": {\"value\": \"pear\"}}]", "200");
    assertThat(browser.findElement(By.id("status")).getText()).isEqualTo("200 OK, 1 message");
    assertThat(browser.findElement(By.id("response-body")).getText()).contains("\"totalUnits\": \"15\"")
        .endsWith("end of stream: {}");
    assertThat(run(copiedCurl("/tally"))).contains("\"totalUnits\":\"15\"").endsWith("{}");

    browser.findElement(By.cssSelector("li.rpc[data-path='/demo.inventory.Inventory/lookup']")).click();
    waiting().until(b -> b.findElement(By.id("stream-note")).getText().startsWith("A bidirectional stream"));
    assertThat(browser.findElement(By.id("stream-note")).getText()).contains("HTTP/2 only");
    send("[{\"skus\": {\"value\": \"pear\"}}, {\"skus\": {\"value\": \"fig\"}}]", "505");
    assertThat(browser.findElement(By.id("response-body")).getText()).contains("\"code\": \"unimplemented\"");
    String bidi = copiedCurl("/lookup");
    assertThat(bidi).endsWith("--http2-prior-knowledge");
    assertThat(run(bidi)).containsSubsequence("\"pear\"", "\"fig\"", "STOCK_LEVEL_UNKNOWN").endsWith("{}");
  }

  /** Types {@code json} as the request, sends it, and waits for a status starting with {@code status}. */
  private void send(String json, String status) {
    WebElement request = browser.findElement(By.id("request"));
    request.clear();
    request.sendKeys(json);
    browser.findElement(By.id("send")).click();
    waiting().until(b -> b.findElement(By.id("status")).getText().startsWith(status));
  }

  /** "Copy as curl" clicked: the command shown, once it names {@code route}. */
  private String copiedCurl(String route) {
    browser.findElement(By.id("copy-curl")).click();
    waiting().until(b -> b.findElement(By.id("curl")).getText().contains(route));
    return browser.findElement(By.id("curl")).getText();
  }

  /** Runs a copied curl command with bash: what it printed, once it exited 0. */
  private static String run(String command) throws Exception {
    Process curl = new ProcessBuilder("bash", "-c", command).redirectErrorStream(true).start();
    assertThat(curl.waitFor(30, TimeUnit.SECONDS)).as("curl finished").isTrue();
    String printed = new String(curl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(curl.exitValue()).as(printed).isZero();
    return printed;
  }

  private void screenshot() throws Exception {
    browser.manage().window().setSize(new Dimension(1400, 1000));
    Path shot = ((ChromeDriver) browser).getScreenshotAs(OutputType.FILE).toPath();
    Path target = Path.of("target", "console.png");
    Files.copy(shot, target, StandardCopyOption.REPLACE_EXISTING);
    assertThat(Files.size(target)).isGreaterThan(10_000);
    if (Boolean.getBoolean("boltgen.updateScreenshot")) {
      Files.copy(shot, Path.of("..", "docs", "img", "console.png"), StandardCopyOption.REPLACE_EXISTING);
    }
  }
}
