package io.boltgen.cluster.it;

import io.boltgen.testing.ReadyProcess;

/** A {@link ClusterNode} in a child JVM of its own, as an operator runs an instance. */
final class NodeProcess {

  private NodeProcess() {}

  /** A node registered in {@code registryUri} with a lease or session of {@code ttlMillis} and {@code weight}. */
  static ReadyProcess start(String registryUri, long ttlMillis, int weight) throws Exception {
    return ReadyProcess.start(ReadyProcess.java(ClusterNode.class.getName(), registryUri,
        Long.toString(ttlMillis), Integer.toString(weight)));
  }
}
