package io.boltgen.bench;

import java.io.PrintStream;
import java.util.List;

/** A command that runs a {@link Bench.Plan}: its options make the plan, which {@link BenchRun} runs. */
abstract class Planned extends Measuring {

  /** The plan of these options (runs nothing), {@code command} being the command line as a reader would retype it. */
  abstract Bench.Plan plan(String command);

  @Override
  List<String> run(String command, PrintStream out) throws Exception {
    return BenchRun.execute(plan(command), out).failures();
  }
}
