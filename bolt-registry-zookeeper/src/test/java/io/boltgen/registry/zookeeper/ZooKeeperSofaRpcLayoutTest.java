package io.boltgen.registry.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.boltgen.runtime.cluster.NameResolver;
import io.boltgen.runtime.cluster.Registration;
import io.boltgen.runtime.cluster.ServiceInstance;
import io.boltgen.testing.Closer;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * SOFARPC's ZooKeeper layout (sofa-rpc 5.13.2, {@code registry-zk}): what a registration writes, read back by
 * SOFARPC's own parsing rules (re-stated here, independently of {@link SofaRpcUrl}), and provider nodes written
 * the way SOFARPC's providers write them, found by a watch.
 */
class ZooKeeperSofaRpcLayoutTest {

  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final String GREET = "com.example.sofa.hessian.GreetService";
  private static TestingServer server;
  private static int nextInterface;
  private final Closer closer = new Closer();

  @BeforeAll
  static void startZooKeeper() throws Exception {
    server = new TestingServer(true);
  }

  @AfterAll
  static void stopZooKeeper() throws Exception {
    server.close();
  }

  @AfterEach
  void closeWhatTheTestOpened() throws Exception {
    closer.close();
  }

  /** An interface no other test of this class used, so that tests do not see each other's nodes. */
  private static String newInterface() {
    return GREET + nextInterface++;
  }

  private static ServiceInstance instance(int port) {
    return ServiceInstance.of(new InetSocketAddress("127.0.0.1", port));
  }

  private ZooKeeperRegistry registry() {
    return closer.track(ZooKeeperRegistry.builder().connectString(server.getConnectString())
        .layout(ZooKeeperRegistry.Layout.SOFARPC).build());
  }

  private CuratorFramework curator() {
    CuratorFramework client = CuratorFrameworkFactory.newClient(server.getConnectString(), 10_000, 2_000,
        new RetryOneTime(100));
    client.start();
    return closer.track(client);
  }

  private static String providers(String interfaceName) {
    return "/sofa-rpc/" + interfaceName + "/providers";
  }

  /**
   * The parameters of {@code url} as SOFARPC's {@code ProviderHelper.toProviderInfo} reads them: after the first
   * {@code ?}, split at every {@code &}, each pair at every {@code =}, the second part the value.
   */
  private static Map<String, String> sofaRpcParams(String url) {
    Map<String, String> params = new HashMap<>();
    for (String pair : url.substring(url.indexOf('?') + 1).split("&", -1)) {
      String[] kv = pair.split("=", -1);
      params.put(kv[0], kv[1]); // SOFARPC throws here too for a pair without '='
    }
    return params;
  }

  /** A provider node as SOFARPC's {@code ZookeeperRegistry.registerProviderUrls} writes it. */
  private static void writeAsSofaRpc(CuratorFramework raw, String interfaceName, String url) throws Exception {
    raw.create().creatingParentContainersIfNeeded().withMode(CreateMode.EPHEMERAL)
        .forPath(providers(interfaceName) + "/" + URLEncoder.encode(url, StandardCharsets.UTF_8), new byte[] {1});
  }

  /**
   * A URL in the form SOFARPC 5.13.2's {@code RegistryUtils.convertProviderToUrls} gives for a bolt server on
   * {@code port} (its parameters come from a HashMap, so in no particular order; this is one it printed).
   */
  private static String sofaRpcUrl(String interfaceName, int port, String uniqueId, String weight) {
    return "bolt://127.0.0.1:" + port + "?version=1.0&accepts=100000&appName=test-server"
        + (weight == null ? "" : "&weight=" + weight) + "&language=java&pid=4242&interface=" + interfaceName
        + "&serialization=hessian2&timeout=3000" + (uniqueId == null ? "" : "&uniqueId=" + uniqueId)
        + "&protocol=bolt&delay=-1&dynamic=true&startTime=1733100000000&id=rpc-cfg-0&rpcVer=51302";
  }

  @Test
  void aRegistrationIsAnEphemeralProviderNodeThatSofaRpcParses() throws Exception {
    CuratorFramework raw = curator();
    ZooKeeperRegistry registry = registry();
    String itf = newInterface();
    Registration registration = registry.register(itf + ":1.0", instance(20301).withWeight(250)
        .withMetadata(Map.of("appName", "greeter", "rack", "r7", "formula", "a=b", "serialization", "protobuf")));

    List<String> children = raw.getChildren().forPath(providers(itf));
    assertThat(children).hasSize(1);
    String url = URLDecoder.decode(children.get(0), StandardCharsets.UTF_8);
    assertThat(URLEncoder.encode(url, StandardCharsets.UTF_8)).isEqualTo(children.get(0));
    assertThat(url).startsWith("bolt://127.0.0.1:20301?version=1.0&uniqueId=&interface=" + itf
        + "&protocol=bolt&weight=250&serialization=protobuf&timeout=0&dynamic=true&startTime=");
    Map<String, String> params = sofaRpcParams(url);
    assertThat(params).containsEntry("version", "1.0").containsEntry("uniqueId", "").containsEntry("weight", "250")
        .containsEntry("protocol", "bolt").containsEntry("interface", itf).containsEntry("rpcVer", "51302")
        .containsEntry("appName", "greeter").containsEntry("rack", "r7").containsEntry("language", "java")
        .containsEntry("dynamic", "true").containsEntry("serialization", "protobuf")
        .doesNotContainKey("formula"); // a value with '=' cannot be written
    assertThat(Long.parseLong(params.get("startTime"))).isPositive();
    assertThat(Long.parseLong(params.get("pid"))).isEqualTo(ProcessHandle.current().pid());

    Stat stat = new Stat();
    String path = providers(itf) + "/" + children.get(0);
    assertThat(raw.getData().storingStatIn(stat).forPath(path)).containsExactly(1);
    assertThat(stat.getEphemeralOwner()).isNotZero()
        .isNotEqualTo(raw.getZookeeperClient().getZooKeeper().getSessionId());

    registration.close();
    assertThat(raw.checkExists().forPath(path)).isNull();
  }

  @Test
  void aUniqueIdAndAnotherVersionGoIntoTheUrlAndHessian2IsTheDefaultSerialization() throws Exception {
    CuratorFramework raw = curator();
    String itf = newInterface();
    closer.track(registry().register(itf + ":2.1:blue:green", instance(20311)));
    String url = URLDecoder.decode(raw.getChildren().forPath(providers(itf)).get(0), StandardCharsets.UTF_8);
    assertThat(sofaRpcParams(url)).containsEntry("version", "2.1").containsEntry("uniqueId", "blue:green")
        .containsEntry("weight", "100").containsEntry("serialization", "hessian2").doesNotContainKey("appName");
  }

  @Test
  void closingTheRegistryDeletesItsProviderNodes() throws Exception {
    CuratorFramework raw = curator();
    String itf = newInterface();
    ZooKeeperRegistry registry = registry();
    registry.register(itf + ":1.0", instance(20321));
    registry.register(itf + ":1.0", instance(20322));
    assertThat(raw.getChildren().forPath(providers(itf))).hasSize(2);
    registry.close();
    await().atMost(WAIT).until(() -> raw.getChildren().forPath(providers(itf)).isEmpty());
  }

  @Test
  void providersWrittenBySofaRpcAreFoundByVersionUniqueIdAndProtocol() throws Exception {
    CuratorFramework raw = curator();
    String itf = newInterface();
    writeAsSofaRpc(raw, itf, sofaRpcUrl(itf, 12200, "", "222"));
    writeAsSofaRpc(raw, itf, sofaRpcUrl(itf, 12201, "", null)); // no weight: SOFARPC's default, 100
    writeAsSofaRpc(raw, itf, sofaRpcUrl(itf, 12202, "unique123Id", "300"));
    writeAsSofaRpc(raw, itf, sofaRpcUrl(itf, 12203, "", "100").replace("bolt://", "h2c://")); // another protocol
    writeAsSofaRpc(raw, itf, sofaRpcUrl(itf, 12204, "", "100").replace("version=1.0", "version=2.0"));
    writeAsSofaRpc(raw, itf, sofaRpcUrl(itf, 12205, null, "100")); // no uniqueId: the empty one
    writeAsSofaRpc(raw, itf, "BOLT://127.0.0.1:12206/?version=1.0&uniqueId=&weight=7"); // SOFARPC lower-cases
    ZooKeeperRegistry registry = registry();

    Recorder plain = watch(registry, itf + ":1.0");
    plain.awaitWeights(Map.of(12200, 222, 12201, 100, 12205, 100, 12206, 7));
    ServiceInstance first = plain.latest().stream().filter(i -> i.address().getPort() == 12200).findFirst().get();
    assertThat(first.address().getHostString()).isEqualTo("127.0.0.1");
    assertThat(first.metadata()).containsEntry("rpcVer", "51302").containsEntry("appName", "test-server")
        .containsEntry("serialization", "hessian2").containsEntry("timeout", "3000").containsEntry("uniqueId", "")
        .containsEntry("interface", itf).doesNotContainKey("weight");

    watch(registry, itf + ":1.0:unique123Id").awaitWeights(Map.of(12202, 300));
    watch(registry, itf + ":2.0").awaitWeights(Map.of(12204, 100));
    assertThat(plain.errors()).isEmpty();
  }

  @Test
  void aGarbledNodeIsSkippedAndDoesNotHideTheOthers() throws Exception {
    CuratorFramework raw = curator();
    String itf = newInterface();
    writeAsSofaRpc(raw, itf, sofaRpcUrl(itf, 12210, "", "5"));
    writeAsSofaRpc(raw, itf, "bolt://127.0.0.1:12211?version=1.0&uniqueId=&broken"); // SOFARPC fails on it too
    writeAsSofaRpc(raw, itf, "bolt://127.0.0.1?version=1.0&uniqueId="); // no port
    writeAsSofaRpc(raw, itf, "bolt://127.0.0.1:12212?"); // an empty pair
    raw.create().forPath(providers(itf) + "/bolt%3A%2F%2F%ZZ", new byte[] {1}); // not URL-encoded
    writeAsSofaRpc(raw, itf, sofaRpcUrl(itf, 12213, "", "99999")); // above boltgen's highest weight: taken as it

    Recorder seen = watch(registry(), itf + ":1.0");
    seen.awaitWeights(Map.of(12210, 5, 12213, ServiceInstance.MAX_WEIGHT));
  }

  @Test
  void providersComingAndGoingAreSeen() throws Exception {
    CuratorFramework raw = curator();
    String itf = newInterface();
    Recorder seen = watch(registry(), itf + ":1.0");
    await().atMost(WAIT).until(() -> !seen.updates.isEmpty());
    assertThat(seen.latest()).isEmpty();

    writeAsSofaRpc(raw, itf, sofaRpcUrl(itf, 12220, "", "10"));
    seen.awaitWeights(Map.of(12220, 10));
    writeAsSofaRpc(raw, itf, sofaRpcUrl(itf, 12221, "", "20"));
    seen.awaitWeights(Map.of(12220, 10, 12221, 20));
    raw.delete().forPath(providers(itf) + "/"
        + URLEncoder.encode(sofaRpcUrl(itf, 12220, "", "10"), StandardCharsets.UTF_8));
    seen.awaitWeights(Map.of(12221, 20));

    Registration own = registry().register(itf + ":1.0", instance(12222).withWeight(30));
    seen.awaitWeights(Map.of(12221, 20, 12222, 30));
    own.close();
    seen.awaitWeights(Map.of(12221, 20));
  }

  @Test
  void registeringAnAddressAgainReplacesItsNodeAndAWatchListsOnlyTheNewestOfAnAddress() throws Exception {
    CuratorFramework raw = curator();
    String itf = newInterface();
    ZooKeeperRegistry registry = registry();
    Registration first = registry.register(itf + ":1.0", instance(20331).withWeight(10));
    Recorder seen = watch(registry, itf + ":1.0");
    seen.awaitWeights(Map.of(20331, 10));

    Registration second = registry.register(itf + ":1.0", instance(20331).withWeight(20));
    seen.awaitWeights(Map.of(20331, 20));
    assertThat(raw.getChildren().forPath(providers(itf))).singleElement()
        .satisfies(name -> assertThat(URLDecoder.decode(name, StandardCharsets.UTF_8)).contains("&weight=20&"));
    first.close(); // replaced: deletes nothing
    assertThat(raw.getChildren().forPath(providers(itf))).hasSize(1);

    // a provider that restarted before ZooKeeper expired its old session: two nodes, one address
    writeAsSofaRpc(raw, itf, sofaRpcUrl(itf, 20332, "", "1"));
    writeAsSofaRpc(raw, itf, sofaRpcUrl(itf, 20332, "", "2").replace("1733100000000", "1733100099999"));
    seen.awaitWeights(Map.of(20331, 20, 20332, 2));
    second.close();
    seen.awaitWeights(Map.of(20332, 2));
  }

  @Test
  void aWatchReadsAtMostMaxInstancesNodes() throws Exception {
    CuratorFramework raw = curator();
    String itf = newInterface();
    int nodes = ZooKeeperRegistry.MAX_INSTANCES + 1;
    String parent = providers(itf);
    raw.create().creatingParentsIfNeeded().forPath(parent);
    for (int from = 0; from < nodes; from += 500) {
      List<CuratorOp> batch = new java.util.ArrayList<>();
      for (int i = from; i < Math.min(nodes, from + 500); i++) {
        String url = "bolt://127.0.0.1:" + (20000 + i) + "?version=1.0&uniqueId=";
        batch.add(raw.transactionOp().create().forPath(parent + "/" + URLEncoder.encode(url, StandardCharsets.UTF_8),
            new byte[] {1}));
      }
      raw.transaction().forOperations(batch);
    }
    Recorder seen = watch(registry(), itf + ":1.0");
    await().atMost(WAIT).until(() -> seen.latest().size() == ZooKeeperRegistry.MAX_INSTANCES);
    assertThat(raw.getChildren().forPath(parent)).hasSize(nodes);
  }

  @Test
  void theLayoutIsChosenInTheBuilderOrTheUriAndNamesAreChecked() throws Exception {
    CuratorFramework raw = curator();
    String itf = newInterface();
    ZooKeeperRegistry fromUri = closer.track(ZooKeeperRegistry.fromUri(
        "zookeeper://" + server.getConnectString() + "?layout=sofarpc"));
    closer.track(fromUri.register(itf + ":1.0", instance(20341)));
    assertThat(raw.getChildren().forPath(providers(itf))).hasSize(1);

    ZooKeeperRegistry rooted = closer.track(ZooKeeperRegistry.fromUri(
        "zookeeper://" + server.getConnectString() + "/apps/sofa-rpc?layout=SOFARPC"));
    closer.track(rooted.register(itf + ":1.0", instance(20342)));
    assertThat(raw.getChildren().forPath("/apps/sofa-rpc/" + itf + "/providers")).hasSize(1);

    ZooKeeperRegistry boltgen = closer.track(ZooKeeperRegistry.fromUri(
        "zookeeper://" + server.getConnectString() + "?layout=boltgen"));
    closer.track(boltgen.register(itf + ":1.0", instance(20343)));
    assertThat(raw.checkExists().forPath("/boltgen/services/" + itf + ":1.0/127.0.0.1:20343")).isNotNull();

    // watches set again after every event, as for a server before 3.6: the same instances arrive
    ZooKeeperRegistry compatible = closer.track(ZooKeeperRegistry.fromUri(
        "zookeeper://" + server.getConnectString() + "?layout=sofarpc&persistentWatches=false"));
    List<List<ServiceInstance>> seen = new CopyOnWriteArrayList<>();
    closer.track(compatible.watch(itf + ":1.0", new NameResolver.Listener() {
      @Override
      public void onInstances(List<ServiceInstance> instances) {
        seen.add(instances);
      }

      @Override
      public void onError(Throwable error) {
        seen.add(List.of());
      }
    }));
    await().atMost(Duration.ofSeconds(30)).until(() -> !seen.isEmpty() && seen.get(seen.size() - 1).size() == 1);
    assertThatThrownBy(() -> ZooKeeperRegistry.fromUri("zookeeper://h:1?layout=sofarpc&persistentWatches=maybe"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("persistentWatches is true or false");

    assertThatThrownBy(() -> ZooKeeperRegistry.fromUri("zookeeper://h:1?layout=dubbo"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("layout=sofarpc");
    assertThatThrownBy(() -> ZooKeeperRegistry.fromUri("zookeeper://h:1?layout=sofarpc&x=y"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("x=y");
    assertThatThrownBy(() -> ZooKeeperRegistry.fromUri("zookeeper://h:1?layout=sofarpc#f"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("fragment");

    ZooKeeperRegistry registry = registry();
    for (String bad : List.of(itf, itf + ":", ":1.0", itf + ":1.0:", itf + ":1.0:a=b", itf + ":1&0")) {
      assertThatThrownBy(() -> registry.register(bad, instance(20344)))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(bad);
      assertThatThrownBy(() -> registry.watch(bad, instances -> { }))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(bad);
    }
    assertThatThrownBy(() -> registry.register(itf + ":1.0", ServiceInstance.of(new InetSocketAddress("::1", 1))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("IPv6");
  }

  private Recorder watch(NameResolver resolver, String service) {
    Recorder recorder = new Recorder();
    closer.track(resolver.watch(service, recorder));
    return recorder;
  }

  /** Every set and error a watch hears. */
  private static final class Recorder implements NameResolver.Listener {
    final List<List<ServiceInstance>> updates = new CopyOnWriteArrayList<>();
    private final List<Throwable> errors = new CopyOnWriteArrayList<>();

    @Override
    public void onInstances(List<ServiceInstance> instances) {
      updates.add(instances);
    }

    @Override
    public void onError(Throwable error) {
      errors.add(error);
    }

    List<Throwable> errors() {
      return errors;
    }

    List<ServiceInstance> latest() {
      return updates.isEmpty() ? List.of() : updates.get(updates.size() - 1);
    }

    /** Waits until the last set is exactly these ports, with these weights. */
    void awaitWeights(Map<Integer, Integer> weightByPort) {
      await().atMost(WAIT).pollInterval(Duration.ofMillis(10)).untilAsserted(() ->
          assertThat(latest().stream().collect(Collectors.toMap(i -> i.address().getPort(), ServiceInstance::weight)))
              .isEqualTo(weightByPort));
    }
  }
}
