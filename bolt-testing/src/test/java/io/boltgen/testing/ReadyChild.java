package io.boltgen.testing;

import java.util.concurrent.CountDownLatch;

/**
 * A stand-in server for {@link ReadyProcessTest}, run in a child JVM: {@code ReadyChild PORT} logs that it started,
 * prints {@code READY PORT} and waits until SIGTERM, on which its shutdown hook logs {@code stopping}; with no
 * argument it logs {@code no port given} and exits with status 3 before it is ready. With a second argument,
 * {@code with-grandchild}, it first starts another {@code ReadyChild} through {@link ReadyProcess}, freezes it
 * (SIGSTOP), logs {@code grandchild <pid>} and leaves it to the shutdown hook of {@link ChildProcess}; with
 * {@code with-etcd FILE}, it starts an {@link EtcdProcess} whose log is to be kept at {@code FILE}, logs
 * {@code etcd <pid>} and leaves it to the hook too.
 */
public final class ReadyChild {

  private ReadyChild() {}

  public static void main(String[] args) throws Exception {
    if (args.length == 0) {
      System.err.println("no port given");
      System.exit(3);
    }
    System.err.println("started");
    if (args.length > 1 && args[1].equals("with-grandchild")) {
      @SuppressWarnings("resource") // left running on purpose: the shutdown hook must stop it
      ReadyProcess grandchild = ReadyProcess.start(ReadyProcess.java(ReadyChild.class.getName(), "4246"));
      grandchild.signal("STOP");
      System.err.println("grandchild " + grandchild.pid());
    }
    if (args.length > 2 && args[1].equals("with-etcd")) {
      @SuppressWarnings("resource") // left running on purpose: the shutdown hook must stop it and keep its log
      EtcdProcess etcd = EtcdProcess.start().keepLogAt(java.nio.file.Path.of(args[2]));
      System.err.println("etcd " + etcd.pid());
    }
    CountDownLatch stopping = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      System.err.println("stopping");
      stopping.countDown();
    }, "ready-child-shutdown"));
    System.out.println("READY " + args[0]);
    System.out.flush();
    stopping.await();
  }
}
