package io.boltgen.bench;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;

/** A command that measures: it runs with its command line as a reader would retype it, and exits 1 if anything failed. */
abstract class Measuring implements Callable<Integer> {

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  /** Runs, {@code command} being the command line, printing to {@code out}; what failed. */
  abstract List<String> run(String command, PrintStream out) throws Exception;

  @Override
  public Integer call() throws Exception {
    String[] argv = spec.root().commandLine().getParseResult().originalArgs().toArray(String[]::new);
    return run(Invocation.commandLine(argv), new PrintStream(System.out, true, StandardCharsets.UTF_8)).isEmpty() ? 0
        : 1;
  }
}
