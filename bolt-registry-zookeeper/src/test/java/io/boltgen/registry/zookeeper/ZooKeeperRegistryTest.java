package io.boltgen.registry.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.boltgen.json.InstanceRecord;
import io.boltgen.runtime.cluster.NameResolver;
import io.boltgen.runtime.cluster.Registration;
import io.boltgen.runtime.cluster.ServiceInstance;
import io.boltgen.testing.Closer;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.KillSession;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.ClientCnxnSocketNetty;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** What is particular to ZooKeeper: sessions, restarts, the node layout, data written by others, ownership. */
class ZooKeeperRegistryTest {

  private static final Duration WAIT = Duration.ofSeconds(20);
  private static TestingServer server;
  private final Closer closer = new Closer();
  private static int nextService;

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

  private static String service() {
    return "zk.Service" + nextService++ + "-" + System.nanoTime() + ":1.0";
  }

  private static ServiceInstance instance(int port) {
    return ServiceInstance.of(new InetSocketAddress("127.0.0.1", port));
  }

  /** The node of {@code instance(port)} under the default root. */
  private static String instanceNode(String service, int port) {
    return ZooKeeperRegistry.DEFAULT_ROOT + "/" + service + "/127.0.0.1:" + port;
  }

  private ZooKeeperRegistry registry(TestingServer on) {
    return closer.track(ZooKeeperRegistry.builder().connectString(on.getConnectString()).build());
  }

  private CuratorFramework curator(TestingServer on) {
    CuratorFramework client = CuratorFrameworkFactory.newClient(on.getConnectString(), 10_000, 2_000,
        new RetryOneTime(100));
    client.start();
    return closer.track(client);
  }

  private Recorder watch(NameResolver resolver, String service) {
    Recorder recorder = new Recorder();
    closer.track(resolver.watch(service, recorder));
    return recorder;
  }

  @Test
  void anInstanceIsAnEphemeralNodeUnderContainersWithJsonData() throws Exception {
    CuratorFramework raw = curator(server);
    String service = service();
    Registration registration = registry(server).register(service,
        instance(20101).withWeight(7).withVersion("2.0").withZone("z1").withMetadata(Map.of("k", "v")));

    String path = "/boltgen/services/" + service + "/127.0.0.1:20101";
    Stat stat = new Stat();
    byte[] data = raw.getData().storingStatIn(stat).forPath(path);
    assertThat(new String(data, StandardCharsets.UTF_8)).isEqualTo(
        "{\"address\":\"127.0.0.1:20101\",\"weight\":7,\"version\":\"2.0\",\"zone\":\"z1\",\"metadata\":{\"k\":\"v\"}}");
    // ephemeral: owned by the registry's session (ZooKeeper shows containers and persistent nodes as owned by 0)
    assertThat(stat.getEphemeralOwner()).isNotZero()
        .isNotEqualTo(raw.getZookeeperClient().getZooKeeper().getSessionId());

    registration.close();
    assertThat(raw.checkExists().forPath(path)).isNull();
  }

  @Test
  void emptyParentsAreContainersThatZooKeeperRemoves() throws Exception {
    // ZooKeeper reads the container check interval (60 s by default) once, while it starts: this server
    // gets 100 ms, and the property is restored once the server has shown that it read it
    String property = "znode.container.checkIntervalMs";
    String before = System.getProperty(property);
    System.setProperty(property, "100");
    try {
      TestingServer sweeping = closer.track(new TestingServer(true));
      CuratorFramework raw = curator(sweeping);
      String service = service();
      Registration registration = registry(sweeping).register(service, instance(20105));
      assertThat(raw.checkExists().forPath("/boltgen/services/" + service)).isNotNull();
      registration.close();
      await().atMost(WAIT).until(() -> raw.checkExists().forPath("/boltgen") == null);
    } finally {
      if (before == null) {
        System.clearProperty(property);
      } else {
        System.setProperty(property, before);
      }
    }
  }

  @Test
  void aSessionKilledOnTheServerDropsTheInstanceThenItIsRegisteredAgain() throws Exception {
    CuratorFramework own = curator(server);
    ZooKeeperRegistry servers = closer.track(ZooKeeperRegistry.builder().client(own).build());
    String service = service();
    servers.register(service, instance(20111));
    Recorder seen = watch(registry(server), service);
    seen.awaitPorts(20111);
    ZooKeeper zk = own.getZookeeperClient().getZooKeeper();
    long killed = zk.getSessionId();

    // a second handle on the same session, closed: the server ends the session and deletes its nodes
    CountDownLatch connected = new CountDownLatch(1);
    ZooKeeper twin = new ZooKeeper(server.getConnectString(), 10_000, event -> {
      if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
        connected.countDown();
      }
    }, killed, zk.getSessionPasswd());
    assertThat(connected.await(10, TimeUnit.SECONDS)).isTrue();
    twin.close();

    await().atMost(WAIT).until(() -> seen.history().contains(Set.of()));
    seen.awaitPorts(20111);
    Stat stat = own.checkExists().forPath("/boltgen/services/" + service + "/127.0.0.1:20111");
    assertThat(stat.getEphemeralOwner()).isNotEqualTo(killed)
        .isEqualTo(own.getZookeeperClient().getZooKeeper().getSessionId());
  }

  @Test
  void aNodeLeftByTheLostSessionIsTakenOverByTheNewOne() throws Exception {
    CuratorFramework own = curator(server);
    ZooKeeperRegistry servers = closer.track(ZooKeeperRegistry.builder().client(own).build());
    String service = service();
    String path = "/boltgen/services/" + service + "/127.0.0.1:20121";
    servers.register(service, instance(20121).withWeight(3));
    long lost = own.getZookeeperClient().getZooKeeper().getSessionId();

    // the client gives its session up; the server keeps it (and the node) until the session times out
    KillSession.kill(own.getZookeeperClient().getZooKeeper());

    await().atMost(WAIT).ignoreExceptions().untilAsserted(() -> {
      long now = own.getZookeeperClient().getZooKeeper().getSessionId();
      assertThat(now).isNotEqualTo(lost);
      assertThat(own.checkExists().forPath(path).getEphemeralOwner()).isEqualTo(now);
    });
    assertThat(InstanceRecord.read(own.getData().forPath(path)).weight()).isEqualTo(3);
  }

  @Test
  void aNodeDeletedBySomeoneElseIsCreatedAgainAtOnceWithItsData() throws Exception {
    CuratorFramework own = curator(server);
    CuratorFramework raw = curator(server);
    ZooKeeperRegistry servers = closer.track(ZooKeeperRegistry.builder().client(own).build());
    String service = service();
    String path = instanceNode(service, 20125);
    Registration registration = servers.register(service, instance(20125).withZone("z9"));
    long created = raw.checkExists().forPath(path).getCzxid();

    raw.delete().forPath(path);

    await().atMost(WAIT).ignoreExceptions().untilAsserted(() -> {
      Stat stat = raw.checkExists().forPath(path);
      assertThat(stat.getCzxid()).as("a new node").isNotEqualTo(created);
      assertThat(stat.getEphemeralOwner()).isEqualTo(own.getZookeeperClient().getZooKeeper().getSessionId());
    });
    assertThat(InstanceRecord.read(raw.getData().forPath(path)).zone()).isEqualTo("z9");
    registration.close();
    assertThat(raw.checkExists().forPath(path)).isNull();
  }

  @Test
  void registeringAnAddressAgainRewritesItsNodeInPlaceAndOnlyTheLatestRegistrationDeletesIt() throws Exception {
    CuratorFramework raw = curator(server);
    ZooKeeperRegistry servers = registry(server);
    String service = service();
    String path = instanceNode(service, 20127);
    Registration first = servers.register(service, instance(20127).withWeight(1));
    Stat before = raw.checkExists().forPath(path);

    Registration second = servers.register(service, instance(20127).withWeight(2));

    Stat after = new Stat();
    assertThat(InstanceRecord.read(raw.getData().storingStatIn(after).forPath(path)).weight()).isEqualTo(2);
    assertThat(after.getCzxid()).as("the same node").isEqualTo(before.getCzxid());
    assertThat(after.getEphemeralOwner()).isEqualTo(before.getEphemeralOwner());
    first.close();
    assertThat(raw.checkExists().forPath(path)).as("replaced: its close leaves the node").isNotNull();
    assertThat(first.toString()).endsWith("(closed)");
    second.close();
    assertThat(raw.checkExists().forPath(path)).isNull();
  }

  @Test
  void aNodeOfAnotherSessionAtTheAddressIsReplacedByTheRegistrysOwn() throws Exception {
    CuratorFramework own = curator(server);
    CuratorFramework stranger = curator(server);
    String service = service();
    String path = instanceNode(service, 20129);
    stranger.create().creatingParentContainersIfNeeded().withMode(CreateMode.EPHEMERAL)
        .forPath(path, InstanceRecord.write(instance(20129).withZone("stranger")));
    ZooKeeperRegistry servers = closer.track(ZooKeeperRegistry.builder().client(own).build());

    servers.register(service, instance(20129).withZone("ours"));

    Stat stat = new Stat();
    assertThat(InstanceRecord.read(own.getData().storingStatIn(stat).forPath(path)).zone()).isEqualTo("ours");
    assertThat(stat.getEphemeralOwner()).isEqualTo(own.getZookeeperClient().getZooKeeper().getSessionId());
    stranger.close(); // its session ends: nothing of ours goes with it
    Recorder seen = watch(registry(server), service);
    seen.awaitPorts(20129);
    assertThat(own.checkExists().forPath(path).getEphemeralOwner()).isEqualTo(stat.getEphemeralOwner());
  }

  @Test
  void watchesRecoverWhenTheServerRestarts() throws Exception {
    TestingServer restarting = closer.track(new TestingServer(true));
    ZooKeeperRegistry servers = closer.track(ZooKeeperRegistry.builder()
        .connectString(restarting.getConnectString()).connectionTimeout(Duration.ofSeconds(5)).build());
    String service = service();
    servers.register(service, instance(20131));
    Recorder seen = watch(registry(restarting), service);
    seen.awaitPorts(20131);

    restarting.stop();
    await().atMost(WAIT).until(() -> seen.errors().size() == 1);
    assertThat(seen.latest()).containsExactly(20131); // the last set is kept

    restarting.restart();
    servers.register(service, instance(20132));
    seen.awaitPorts(20131, 20132);
    assertThat(seen.errors()).hasSize(1); // once per loss, not once per retry
  }

  @Test
  void garbledNodesAreSkippedAndReadOnceRepaired() throws Exception {
    CuratorFramework raw = curator(server);
    String service = service();
    String dir = "/boltgen/services/" + service;
    closer.track(registry(server).register(service, instance(20141)));
    raw.create().creatingParentContainersIfNeeded().withMode(CreateMode.EPHEMERAL)
        .forPath(dir + "/garbage:1", "not json".getBytes(StandardCharsets.UTF_8));
    raw.create().withMode(CreateMode.EPHEMERAL)
        .forPath(dir + "/heavy:1", "{\"address\":\"127.0.0.1:20143\",\"weight\":100000}".getBytes(StandardCharsets.UTF_8));
    raw.create().withMode(CreateMode.EPHEMERAL).forPath(dir + "/empty:1", new byte[0]);
    raw.create().withMode(CreateMode.EPHEMERAL).forPath(dir + "/big:1", new byte[ZooKeeperRegistry.MAX_NODE_DATA + 1]);

    Recorder seen = watch(registry(server), service);
    seen.awaitPorts(20141);

    raw.setData().forPath(dir + "/garbage:1", InstanceRecord.write(instance(20142).withZone("repaired")));
    seen.awaitPorts(20141, 20142);
    assertThat(seen.errors()).isEmpty();
  }

  @Test
  void anApplicationsClientIsLeftOpenButItsNodesAreDeleted() throws Exception {
    CuratorFramework own = curator(server);
    ZooKeeperRegistry registry = closer.track(ZooKeeperRegistry.builder().client(own).root("/apps/registry/").build());
    String service = service();
    registry.register(service, instance(20151));
    String path = "/apps/registry/" + service + "/127.0.0.1:20151";
    assertThat(own.checkExists().forPath(path)).isNotNull();

    registry.close();
    registry.close();

    assertThat(own.getState()).isEqualTo(CuratorFrameworkState.STARTED);
    assertThat(own.checkExists().forPath(path)).isNull();
    own.create().creatingParentsIfNeeded().forPath("/apps/still-usable");
    assertThatThrownBy(() -> registry.register(service, instance(20152)))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void anUnreachableServerFailsRegistrationsAndWatchesWithinTheirBounds() throws Exception {
    int port;
    try (ServerSocket probe = new ServerSocket(0)) {
      port = probe.getLocalPort(); // free once closed: nothing listens there
    }
    ZooKeeperRegistry registry = closer.track(ZooKeeperRegistry.builder().connectString("127.0.0.1:" + port)
        .connectionTimeout(Duration.ofMillis(300)).build());
    String service = service();

    Recorder seen = watch(registry, service);
    await().atMost(Duration.ofSeconds(5)).until(() -> seen.errors().size() == 1);
    assertThat(seen.errors().get(0)).hasMessageContaining("127.0.0.1:" + port).hasMessageContaining(service);
    assertThat(seen.history()).isEmpty();

    long start = System.nanoTime();
    assertThatThrownBy(() -> registry.register(service, instance(20161)))
        .isInstanceOf(UncheckedIOException.class).hasMessageContaining("within 600 ms");
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));

    start = System.nanoTime();
    registry.close();
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
  }

  @Test
  void aListenerThatThrowsKeepsHearingChanges() throws Exception {
    ZooKeeperRegistry registry = registry(server);
    String service = service();
    List<Set<Integer>> heard = new CopyOnWriteArrayList<>();
    closer.track(registry.watch(service, instances -> {
      heard.add(ports(instances));
      throw new IllegalStateException("listener bug");
    }));
    await().atMost(WAIT).until(() -> heard.contains(Set.of()));
    closer.track(registry.register(service, instance(20171)));
    await().atMost(WAIT).until(() -> heard.contains(Set.of(20171)));
  }

  @Test
  void aWatchClosedFromItsListenerStopsAtOnce() throws Exception {
    ZooKeeperRegistry registry = registry(server);
    String service = service();
    AtomicInteger calls = new AtomicInteger();
    AtomicReference<NameResolver.Watch> watch = new AtomicReference<>();
    CountDownLatch created = new CountDownLatch(1);
    CountDownLatch closed = new CountDownLatch(1);
    watch.set(registry.watch(service, instances -> {
      calls.incrementAndGet();
      try {
        created.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      watch.get().close();
      closed.countDown();
    }));
    created.countDown();
    assertThat(closed.await(20, TimeUnit.SECONDS)).isTrue();
    Recorder probe = watch(registry, service);
    closer.track(registry.register(service, instance(20181)));
    probe.awaitPorts(20181);
    assertThat(calls).hasValue(1);
  }

  @Test
  void aRegistryClosedFromItsOwnListenerClosesPromptly() throws Exception {
    ZooKeeperRegistry registry = registry(server);
    String service = service();
    CountDownLatch closed = new CountDownLatch(1);
    long[] took = new long[1];
    registry.watch(service, instances -> {
      long start = System.nanoTime();
      registry.close();
      took[0] = System.nanoTime() - start;
      closed.countDown();
    });
    assertThat(closed.await(20, TimeUnit.SECONDS)).isTrue();
    // it does not wait for its own delivery thread (the connection timeout, 2 s) to finish
    assertThat(Duration.ofNanos(took[0])).isLessThan(Duration.ofSeconds(1));
  }

  @Test
  void theZooKeeperClientRunsOnTheRuntimesNettyWhenAskedTo() throws Exception {
    // ZooKeeper's Netty socket (the one its TLS needs) on the Netty 4.2 the netty-bom aligns it to
    ZKClientConfig config = new ZKClientConfig();
    config.setProperty(ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET, ClientCnxnSocketNetty.class.getName());
    CuratorFramework netty = closer.track(CuratorFrameworkFactory.builder().connectString(server.getConnectString())
        .retryPolicy(new RetryOneTime(100)).zkClientConfig(config).build());
    netty.start();
    ZooKeeperRegistry registry = closer.track(ZooKeeperRegistry.builder().client(netty).build());
    String service = service();
    closer.track(registry.register(service, instance(20185)));
    watch(registry, service).awaitPorts(20185);
    assertThat(netty.getZookeeperClient().getZooKeeper().getClientConfig()
        .getProperty(ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET)).isEqualTo(ClientCnxnSocketNetty.class.getName());
  }

  @Test
  void aRegistrationThatAnAclForbidsFailsWithZooKeepersReasonWithinItsBound() throws Exception {
    CuratorFramework raw = curator(server);
    String root = "/read-only-" + System.nanoTime();
    // anyone may read it, nobody may create under it (ZooDefs.Ids.READ_ACL_UNSAFE; ZooDefs itself carries
    // SpotBugs annotations that javac cannot resolve here)
    raw.create().withACL(List.of(new ACL(1 /* ZooDefs.Perms.READ */, new Id("world", "anyone")))).forPath(root);
    Duration connectionTimeout = Duration.ofSeconds(2);
    ZooKeeperRegistry registry = closer.track(ZooKeeperRegistry.builder().connectString(server.getConnectString())
        .root(root).connectionTimeout(connectionTimeout).build());
    String service = service();

    // ZooKeeper's reason, not "did not confirm registering … within 4000 ms" when the caller's bound passes
    assertThatThrownBy(() -> registry.register(service, instance(20190)))
        .isInstanceOf(UncheckedIOException.class)
        .hasMessageContaining("could not register \"" + service + "\" at 127.0.0.1:20190")
        .hasMessageContaining("NOAUTH");
    assertThat(raw.getChildren().forPath(root)).isEmpty();
    // and the failed registration stops trying: its node is given up
    await().atMost(WAIT).until(() -> registry.toString().contains(" 0 registered"));
  }

  @Test
  void namesThatCannotBeNodesAreRefusedNamingThem() {
    ZooKeeperRegistry registry = registry(server);
    assertThatThrownBy(() -> registry.register("tab\there", instance(1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tab\\u0009here")
        .hasMessageContaining("control character");
    assertThatThrownBy(() -> registry.watch("x".repeat(513), instances -> { }))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("longer than 512");
    assertThatThrownBy(() -> registry.register("..", instance(1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("\"..\"");
    assertThatThrownBy(() -> registry.register("ok", ServiceInstance.of(InetSocketAddress.createUnresolved("a/b", 1))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a/b:1");
    String huge = "v".repeat(ZooKeeperRegistry.MAX_NODE_DATA);
    assertThatThrownBy(() -> registry.register("ok", instance(1).withVersion(huge)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("more than " + ZooKeeperRegistry.MAX_NODE_DATA);
    assertThat(registry.scheme()).isEqualTo("zookeeper");
  }

  @Test
  void buildersAndUrisAreCheckedBeforeAnythingConnects() throws Exception {
    assertThatThrownBy(() -> ZooKeeperRegistry.builder().build()).isInstanceOf(IllegalStateException.class);
    CuratorFramework latent = CuratorFrameworkFactory.newClient(server.getConnectString(), new RetryOneTime(1));
    closer.track(latent);
    assertThatThrownBy(() -> ZooKeeperRegistry.builder().client(latent).build())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("started");
    assertThatThrownBy(() -> ZooKeeperRegistry.builder().connectString("h:1").client(latent).build())
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> ZooKeeperRegistry.builder().root("relative")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ZooKeeperRegistry.builder().root("/a//b")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ZooKeeperRegistry.builder().root("/zookeeper/x")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ZooKeeperRegistry.builder().sessionTimeout(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ZooKeeperRegistry.fromUri("etcd://h:1")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ZooKeeperRegistry.fromUri("zookeeper://h")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ZooKeeperRegistry.fromUri("zookeeper://h:1,")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ZooKeeperRegistry.fromUri("zookeeper://h:1?x=y")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aUriNamesTheServersAndOptionallyTheRoot() throws Exception {
    CuratorFramework raw = curator(server);
    String service = service();
    ZooKeeperRegistry registry = closer.track(ZooKeeperRegistry.fromUri(
        "zookeeper://" + server.getConnectString() + "," + server.getConnectString() + "/from/uri"));
    closer.track(registry.register(service, instance(20191)));
    assertThat(raw.checkExists().forPath("/from/uri/" + service + "/127.0.0.1:20191")).isNotNull();

    ZooKeeperRegistry defaults = closer.track(ZooKeeperRegistry.fromUri("zookeeper://" + server.getConnectString()));
    closer.track(defaults.register(service, instance(20192)));
    assertThat(raw.checkExists().forPath("/boltgen/services/" + service + "/127.0.0.1:20192")).isNotNull();
  }

  private static Set<Integer> ports(List<ServiceInstance> instances) {
    return instances.stream().map(i -> i.address().getPort()).collect(Collectors.toSet());
  }

  /** Every set and error a watch hears. */
  private static final class Recorder implements NameResolver.Listener {
    private final List<Set<Integer>> history = new CopyOnWriteArrayList<>();
    private final List<Throwable> errors = new CopyOnWriteArrayList<>();

    @Override
    public void onInstances(List<ServiceInstance> instances) {
      history.add(ports(instances));
    }

    @Override
    public void onError(Throwable error) {
      errors.add(error);
    }

    List<Set<Integer>> history() {
      return history;
    }

    List<Throwable> errors() {
      return errors;
    }

    Set<Integer> latest() {
      return history.isEmpty() ? Set.of() : history.get(history.size() - 1);
    }

    void awaitPorts(Integer... ports) {
      await().atMost(WAIT).pollInterval(Duration.ofMillis(10)).untilAsserted(() ->
          assertThat(latest()).containsExactlyInAnyOrder(ports));
    }
  }
}
