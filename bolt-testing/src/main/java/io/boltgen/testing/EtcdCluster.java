package io.boltgen.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A cluster of real etcd members on loopback for tests: each with its own name, data dir and client/peer
 * ports, all listed in {@code --initial-cluster} with state {@code new}. Started together (a member answers
 * only once the cluster has a leader) and stopped and deleted on {@link #close}.
 */
public final class EtcdCluster implements AutoCloseable {

  final List<EtcdProcess> members;

  private EtcdCluster(List<EtcdProcess> members) {
    this.members = List.copyOf(members);
  }

  public static EtcdCluster start(int size) {
    List<EtcdProcess> members = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      members.add(EtcdProcess.create("member" + i));
    }
    String initialCluster = members.stream().map(m -> m.name + "=" + m.peerUrl()).collect(Collectors.joining(","));
    String token = "cluster-" + System.nanoTime();
    EtcdCluster cluster = new EtcdCluster(members);
    try {
      for (EtcdProcess member : members) {
        member.launch(initialCluster, token);
      }
      for (EtcdProcess member : members) {
        member.awaitHealthy();
      }
    } catch (RuntimeException e) {
      cluster.close();
      throw e;
    }
    return cluster;
  }

  public EtcdProcess member(int index) {
    return members.get(index);
  }

  /** The leader now. */
  public EtcdProcess leader() {
    return members.stream().filter(EtcdProcess::isLeader).findFirst()
        .orElseThrow(() -> new IllegalStateException("no leader"));
  }

  /** A member that is not the leader now. */
  public EtcdProcess follower() {
    return members.stream().filter(m -> !m.isLeader()).findFirst().orElseThrow();
  }

  /** The client URLs of {@code first}, then of the other members. */
  public String[] endpointsStartingWith(EtcdProcess first) {
    return java.util.stream.Stream.concat(java.util.stream.Stream.of(first), members.stream().filter(m -> m != first))
        .map(EtcdProcess::endpoint).toArray(String[]::new);
  }

  /** The client URLs of the members other than {@code left}. */
  public String[] endpointsWithout(EtcdProcess left) {
    return members.stream().filter(m -> m != left).map(EtcdProcess::endpoint).toArray(String[]::new);
  }

  /** The client URLs of every member, in order. */
  public String[] endpoints() {
    return members.stream().map(EtcdProcess::endpoint).toArray(String[]::new);
  }

  @Override
  public void close() {
    RuntimeException first = null;
    for (EtcdProcess member : members) {
      try {
        member.close();
      } catch (RuntimeException e) {
        if (first == null) {
          first = e;
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
