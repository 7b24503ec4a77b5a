package io.boltgen.runtime;

import java.io.IOException;
import java.io.InputStream;
import java.util.Collections;
import java.util.Map;
import java.util.Properties;
import java.util.StringJoiner;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Netty release the runtime needs, and the check that the class path has it. bolt-runtime is built and
 * tested with one Netty release, {@link #required()}; a dependency manager that chose an older one (Spring
 * Boot's does, unless told otherwise) would let an application start and then fail later, with a
 * {@link NoSuchMethodError} deep inside a call. So the runtime runs {@link #requireSupported()} before it
 * first uses Netty, when the first {@link BoltClient} or {@link BoltServer} is built; a framework may run it
 * earlier, at start-up.
 *
 * <p>The check reads Netty's own version information: every {@code META-INF/io.netty.versions.properties}
 * that bolt-runtime's class loader sees (each Netty jar has one), through Netty's
 * {@code io.netty.util.Version.identify}. It fails if any Netty artifact the runtime uses is older than
 * {@link #required()}; newer ones pass. A class path without that information (a shaded or repackaged Netty
 * that dropped it) passes with one warning, since the version cannot be told.
 *
 * <p>Thread-safe.
 */
public final class NettyVersion {

  private static final Logger log = LoggerFactory.getLogger(NettyVersion.class);
  private static final Object LOCK = new Object();
  private static volatile String required;
  private static volatile boolean passed;

  private NettyVersion() {}

  /**
   * The Netty release the runtime was built and tested with, and needs at least: {@code 4.2.18.Final}, say.
   * It comes from the build ({@code io/boltgen/runtime/netty.properties} in bolt-runtime's jar).
   *
   * @throws IllegalStateException if bolt-runtime's jar lacks that resource (a repackaged jar must keep it)
   */
  public static String required() {
    String version = required;
    if (version == null) {
      version = readRequired();
      required = version; // a race reads the same resource twice, harmlessly
    }
    return version;
  }

  /**
   * Checks, once per process, that the Netty on bolt-runtime's class path is {@link #required()} or newer.
   * After the first success it returns at once; after a failure, every call checks (and fails) again. When
   * the class path carries no Netty version information, it logs one warning and passes.
   *
   * @throws UnsupportedException if a Netty artifact the runtime uses is older than {@link #required()}
   */
  public static void requireSupported() {
    if (passed) {
      return;
    }
    synchronized (LOCK) {
      if (!passed) {
        check(required(), Runtimes.PROVIDER.nettyVersions());
        passed = true;
      }
    }
  }

  /**
   * Checks {@code versions} (artifact id to version, Netty's version information) against {@code required};
   * logs the warning if they hold nothing to judge.
   */
  static void check(String required, Map<String, String> versions) {
    if (!NettyReleases.check(required, versions)) {
      log.warn("could not check the Netty version: no Netty version information"
          + " (META-INF/io.netty.versions.properties) on the class path, as with a repackaged Netty;"
          + " boltgen's runtime needs Netty {} or newer", required);
    }
  }

  /**
   * The Netty on the class path is older than the runtime needs. Its message says which artifacts, and how
   * to fix the build; {@link #found()} has the versions, for a framework's failure report.
   */
  public static final class UnsupportedException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    private final String required;
    private final TreeMap<String, String> found;

    UnsupportedException(String required, Map<String, String> found) {
      super(message(required, found));
      this.required = required;
      this.found = new TreeMap<>(found);
    }

    /** The Netty release the runtime needs at least, as {@link NettyVersion#required()}. */
    public String required() {
      return required;
    }

    /**
     * Every Netty artifact the runtime uses that the class path has, by artifact id
     * ({@code netty-common}, …), with its version ({@code 4.2.15.Final}): older ones and any newer ones.
     * Sorted by artifact id; unmodifiable.
     */
    public Map<String, String> found() {
      return Collections.unmodifiableMap(found);
    }

    private static String message(String required, Map<String, String> found) {
      StringJoiner older = new StringJoiner(", ");
      StringJoiner others = new StringJoiner(", ");
      new TreeMap<>(found).forEach((artifact, version) ->
          (NettyReleases.isOlder(version, required) ? older : others).add(artifact + " " + version));
      return "boltgen's runtime needs Netty " + required + " or newer, but the class path has " + older
          + (others.length() == 0 ? "" : ", mixed with " + others)
          + " (a dependency manager, such as Spring Boot's, chose an older Netty). Set <netty.version>"
          + required + "</netty.version> in your pom (Spring Boot parent), or import io.netty:netty-bom:"
          + required + " before other BOMs; check with mvn dependency:tree -Dincludes=io.netty";
    }
  }

  private static String readRequired() {
    Properties properties = new Properties();
    try (InputStream in = NettyVersion.class.getResourceAsStream("netty.properties")) {
      if (in == null) {
        throw new IllegalStateException("bolt-runtime's io/boltgen/runtime/netty.properties is missing"
            + " (a repackaged jar must keep it)");
      }
      properties.load(in);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read bolt-runtime's io/boltgen/runtime/netty.properties", e);
    }
    String version = properties.getProperty("required", "");
    if (NettyReleases.parse(version) == null) {
      throw new IllegalStateException("bolt-runtime's io/boltgen/runtime/netty.properties names no Netty"
          + " version: required=" + version);
    }
    return version;
  }
}
