package io.boltgen.runtime.internal;

import io.netty.util.Version;
import java.util.Map;
import java.util.TreeMap;

/**
 * Netty's own version information, for {@link io.boltgen.runtime.NettyVersion}: {@link Version#identify}
 * reads every {@code META-INF/io.netty.versions.properties} a class loader sees. Of Netty it loads
 * {@code Version} alone, whose methods here exist in every 4.x release, so it runs safely on any Netty the
 * check may then refuse.
 */
public final class NettyArtifacts {

  private NettyArtifacts() {}

  /** Artifact id to version, sorted, of every Netty jar {@code loader} (or the system loader) sees. */
  public static Map<String, String> versions(ClassLoader loader) {
    // identify(null) would ask Netty's PlatformDependent for the context loader, initialising far more of Netty
    ClassLoader from = loader != null ? loader : ClassLoader.getSystemClassLoader();
    Map<String, String> versions = new TreeMap<>();
    Version.identify(from).forEach((artifact, version) -> versions.put(artifact, version.artifactVersion()));
    return versions;
  }
}
