package io.boltgen.bench;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import picocli.CommandLine;

/** A command that runs a {@link Bench.Plan}: its options make the plan, which {@link Bench} runs. */
abstract class Planned implements Callable<Integer> {

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  /** The plan of these options (runs nothing), {@code command} being the command line as a reader would retype it. */
  abstract Bench.Plan plan(String command);

  @Override
  public Integer call() throws Exception {
    String[] argv = spec.root().commandLine().getParseResult().originalArgs().toArray(String[]::new);
    Bench.Result result = BenchRun.execute(plan(Invocation.commandLine(argv)), new PrintStream(System.out, true,
        StandardCharsets.UTF_8));
    return result.failures().isEmpty() ? 0 : 1;
  }
}
