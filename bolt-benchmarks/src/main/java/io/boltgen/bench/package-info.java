/**
 * The benchmarks' one command ({@link io.boltgen.bench.Main}) and the one flow every command goes through.
 *
 * <ol>
 *   <li><b>Options to data.</b> A command's options ({@code Main}, {@code Options}, {@code Mesh}, {@code SofaRpc})
 *       make its settings and, through {@link io.boltgen.bench.scenario.Scenario}, the stages to run: which parts
 *       start together (a server and client JVM pair, a server loaded by wrk, SOFARPC's provider and consumer, a
 *       gateway per balancing policy) and the windows then measured on them, in order. Nothing runs yet.</li>
 *   <li><b>Running.</b> {@link io.boltgen.bench.run.Runner} starts each stage's parts, measures its windows, prints
 *       a line per window and stops the parts; a part that fails is told once and dropped. Child processes go
 *       through bolt-testing's {@code ReadyProcess} (stopped by a shutdown hook should this JVM stop first), wrk
 *       through {@link io.boltgen.bench.run.Wrk}, a closed-loop load in a JVM through
 *       {@link io.boltgen.bench.run.Loads}, the CPU of a window through {@link io.boltgen.bench.run.CpuWindow}, and
 *       every window is kept or measured again by the one quiet rule
 *       ({@link io.boltgen.bench.scenario.QuietPolicy#quietest}). {@link io.boltgen.bench.run.Session} begins and
 *       ends every command's run.</li>
 *   <li><b>Reports.</b> The windows feed the reports ({@code report}, and each command's own beside it), whose
 *       tables are {@link io.boltgen.bench.report.Table}s and whose prose is Markdown templates filled with the run's
 *       values; {@link io.boltgen.bench.BenchmarksPage} writes docs/benchmarks.md whole, linking every other
 *       report.</li>
 * </ol>
 */
package io.boltgen.bench;
