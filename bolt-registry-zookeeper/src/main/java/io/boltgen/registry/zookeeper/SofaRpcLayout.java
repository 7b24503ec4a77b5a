package io.boltgen.registry.zookeeper;

import io.boltgen.runtime.cluster.Registration;
import io.boltgen.runtime.cluster.ServiceInstance;
import io.boltgen.runtime.support.MessageText;
import io.boltgen.runtime.support.RateLimitedLog;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.utils.ZKPaths;

/**
 * SOFARPC's ZooKeeper layout (its {@code registry-zk} module): a service {@code interface:version[:uniqueId]}
 * has its providers as nodes {@code <root>/<interface>/providers/<URL-encoded provider URL>} with the data
 * {@code 0x01}, written and read as {@link SofaRpcUrl} says.
 *
 * <p>The URL is the node's name, so registering an address again with other fields is a new node: it is
 * created, then the earlier one is deleted, and a watch lists only the newest node of an address meanwhile.
 * Thread-safe.
 */
final class SofaRpcLayout {

  /** The data of a provider node: SOFARPC's "online" ({@code dynamic=true}). */
  static final byte[] ONLINE = {1};

  private final String root;
  private final Registrations registrations;
  private final RateLimitedLog.PerKey warn;
  /** The {@code startTime} parameter of every URL this registry writes: when it was built. */
  private final long startTime = System.currentTimeMillis();
  /** The registration in force for each service and address. */
  private final Map<Key, Held> current = new HashMap<>();

  SofaRpcLayout(String root, Registrations registrations, RateLimitedLog.PerKey warn) {
    this.root = root;
    this.registrations = registrations;
    this.warn = warn;
  }

  /** {@code <root>/<interface>/providers} of {@code service}, which must be a SOFARPC unique name. */
  String providersPath(String service) {
    return ZKPaths.makePath(root, SofaRpcUrl.Name.parse(service).interfaceName(), "providers");
  }

  /** What {@link #register} writes for {@code instance}: checked, before anything is written. */
  Prepared prepare(String service, ServiceInstance instance) {
    SofaRpcUrl.Name name = SofaRpcUrl.Name.parse(service);
    List<String> leftOut = new ArrayList<>();
    String url = SofaRpcUrl.write(name, instance, startTime, leftOut);
    if (url.length() > ZooKeeperRegistry.MAX_PROVIDER_URL) {
      throw new IllegalArgumentException("the provider URL of " + instance.hostAndPort() + " for "
          + MessageText.quote(service) + " has " + url.length() + " characters, more than "
          + ZooKeeperRegistry.MAX_PROVIDER_URL);
    }
    if (!leftOut.isEmpty()) {
      warn.warn("leftOut:" + service, "registering {} of {} in the SOFARPC layout without the metadata {}: a "
          + "provider URL cannot hold '&', '=' or '/' in a parameter", instance.hostAndPort(),
          MessageText.quote(service), leftOut);
    }
    String path = ZKPaths.makePath(root, name.interfaceName(), "providers", SofaRpcUrl.nodeName(url));
    return new Prepared(service, instance, path);
  }

  /** A provider node to write. */
  record Prepared(String service, ServiceInstance instance, String path) {}

  /**
   * Writes the node, then deletes the one an earlier registration of the same service and address wrote, if
   * its URL differs (it no longer stands for anything once replaced).
   */
  synchronized Registration register(Prepared prepared) {
    Registration written = registrations.register(prepared.service(), prepared.path(), prepared.instance(), ONLINE);
    Key key = new Key(prepared.service(), prepared.instance().hostAndPort());
    Held held = new Held(key, prepared.path(), written);
    Held replaced = current.put(key, held);
    if (replaced != null && !replaced.path.equals(prepared.path())) {
      replaced.written.close();
    }
    return held;
  }

  /**
   * The watch reader of {@code service}: a child of its providers node is one of its instances if its name
   * is a bolt provider URL of the service's version and uniqueId.
   */
  ServiceWatch.NodeReader reader(String service) {
    SofaRpcUrl.Name name = SofaRpcUrl.Name.parse(service);
    return child -> read(name, child);
  }

  private ServiceInstance read(SofaRpcUrl.Name name, ChildData child) {
    String nodeName = ZKPaths.getNodeFromPath(child.getPath());
    SofaRpcUrl.Provider provider = SofaRpcUrl.parse(nodeName, ZooKeeperRegistry.MAX_PROVIDER_URL);
    List<String> dropped = new ArrayList<>();
    ServiceInstance instance = SofaRpcUrl.instance(name, provider, dropped);
    if (!dropped.isEmpty()) {
      warn.warn("node:" + child.getPath(), "reading ZooKeeper node {}: {}", child.getPath(), dropped);
    }
    return instance;
  }

  private synchronized void forget(Held held) {
    current.remove(held.key, held);
  }

  private record Key(String service, String address) {}

  /** A registration as the application holds it; closing it deletes its node unless replaced meanwhile. */
  private final class Held implements Registration {
    final Key key;
    final String path;
    final Registration written;

    Held(Key key, String path, Registration written) {
      this.key = key;
      this.path = path;
      this.written = written;
    }

    @Override
    public ServiceInstance instance() {
      return written.instance();
    }

    @Override
    public void close() {
      forget(this);
      written.close();
    }

    @Override
    public String toString() {
      return written.toString();
    }
  }
}
