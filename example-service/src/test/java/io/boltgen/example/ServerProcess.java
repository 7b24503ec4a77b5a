package io.boltgen.example;

import io.boltgen.testing.ReadyProcess;
import java.util.List;

/** The example's {@code serve} mode in a child JVM of its own, as an operator runs it. */
final class ServerProcess {

  private ServerProcess() {}

  /** {@code serve --port 0} on this test's class path. */
  static ReadyProcess start() throws Exception {
    return start(null);
  }

  /**
   * {@code serve --port 0}; with {@code openFileLimit} set, under a shell {@code ulimit -n} of that many
   * open files.
   */
  static ReadyProcess start(Integer openFileLimit) throws Exception {
    List<String> command = ReadyProcess.java(ExampleMain.class.getName(), "serve", "--port", "0");
    if (openFileLimit != null) {
      command = List.of("bash", "-c", "ulimit -n " + openFileLimit + " && exec \"$0\" \"$@\"", command.get(0),
          command.get(1), command.get(2), command.get(3), command.get(4), command.get(5), command.get(6));
    }
    return ReadyProcess.start(command);
  }
}
