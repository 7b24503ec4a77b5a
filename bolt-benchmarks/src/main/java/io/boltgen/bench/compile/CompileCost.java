package io.boltgen.bench.compile;

import io.boltgen.bench.report.MachineInfo;
import io.boltgen.processor.BoltProcessor;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import javax.annotation.processing.Completion;
import javax.annotation.processing.ProcessingEnvironment;
import javax.annotation.processing.Processor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * What the processor costs a build: javac compiles the same services with and without it, in this JVM,
 * alternating, and the processor's own time (its {@code process} calls) is measured apart from javac
 * compiling what it generated. The first pair runs in a cold JVM, as in a one-off {@code mvn compile}; the
 * median of the later pairs is the steady state (a build daemon, an IDE).
 */
public final class CompileCost {

  /** What to compile and how often. */
  public record Settings(int services, int iterations) {}

  private record Sample(double withoutMs, double withMs, double processorMs) {}

  private CompileCost() {}

  public static int run(Settings settings, PrintStream out) throws IOException {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    if (javac == null) {
      out.println("error: no system Java compiler: run on a JDK, not a JRE");
      return 1;
    }
    Path root = Files.createTempDirectory("boltgen-compile-cost");
    try {
      Path src = root.resolve("src");
      Map<String, String> sources = ServiceSources.of(settings.services());
      for (Map.Entry<String, String> f : sources.entrySet()) {
        Path p = src.resolve(f.getKey());
        Files.createDirectories(p.getParent());
        Files.writeString(p, f.getValue(), StandardCharsets.UTF_8);
      }
      out.printf(Locale.ROOT, "compile cost: %d services of %d methods and %d records (%d source files), %d pairs;"
              + " load average %.2f%n", settings.services(), ServiceSources.METHODS, ServiceSources.RECORDS,
          sources.size(), settings.iterations(), MachineInfo.loadAverage1());
      List<Sample> samples = new ArrayList<>();
      long generatedLines = 0;
      int generatedFiles = 0;
      for (int i = 0; i < settings.iterations(); i++) {
        double without = compile(javac, src, root.resolve("out-" + i + "-without"), null);
        Timed timed = new Timed(new BoltProcessor());
        Path generated = root.resolve("gen-" + i);
        double with = compile(javac, src, root.resolve("out-" + i + "-with"), new Compile(timed, generated));
        Sample s = new Sample(without, with, timed.nanos / 1e6);
        samples.add(s);
        if (i == 0) {
          try (Stream<Path> files = Files.walk(generated)) {
            for (Path p : files.filter(p -> p.toString().endsWith(".java")).toList()) {
              generatedFiles++;
              generatedLines += Files.readAllLines(p).size();
            }
          }
        }
        out.printf(Locale.ROOT, "  pair %2d: without %7.1f ms   with %7.1f ms   processor %7.1f ms   load %.2f%n", i + 1,
            s.withoutMs(), s.withMs(), s.processorMs(), MachineInfo.loadAverage1());
      }
      int n = settings.services();
      Sample cold = samples.get(0);
      List<Sample> warm = samples.subList(Math.min(1, samples.size() - 1), samples.size());
      double warmWithout = median(warm.stream().map(Sample::withoutMs).toList());
      double warmWith = median(warm.stream().map(Sample::withMs).toList());
      double warmProcessor = median(warm.stream().map(Sample::processorMs).toList());
      out.println();
      out.println("| | javac without the processor | javac with it | added per service | processor's own time per service |");
      out.println("|---|--:|--:|--:|--:|");
      out.printf(Locale.ROOT, "| first pair (cold JVM) | %.0f ms | %.0f ms | %.1f ms | %.1f ms |%n", cold.withoutMs(),
          cold.withMs(), (cold.withMs() - cold.withoutMs()) / n, cold.processorMs() / n);
      out.printf(Locale.ROOT, "| median of pairs 2..%d (warm) | %.0f ms | %.0f ms | %.1f ms | %.1f ms |%n",
          samples.size(), warmWithout, warmWith, (warmWith - warmWithout) / n, warmProcessor / n);
      out.printf(Locale.ROOT, "%nGenerated: %d files, %d lines (%.0f lines per service).%n", generatedFiles,
          generatedLines, (double) generatedLines / n);
      return 0;
    } finally {
      deleteRecursively(root);
    }
  }

  private record Compile(Processor processor, Path generatedSources) {}

  /** Compiles every source under {@code src} into {@code classes}; the wall time in milliseconds. */
  private static double compile(JavaCompiler javac, Path src, Path classes, Compile with) throws IOException {
    Files.createDirectories(classes);
    List<String> options = new ArrayList<>(List.of("--release", "17", "-d", classes.toString(),
        "-classpath", System.getProperty("java.class.path"), "-Xlint:all"));
    if (with == null) {
      options.add("-proc:none");
    } else {
      Files.createDirectories(with.generatedSources());
      options.addAll(List.of("-s", with.generatedSources().toString()));
    }
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8);
        Stream<Path> walk = Files.walk(src)) {
      List<Path> paths = walk.filter(p -> p.toString().endsWith(".java")).sorted().toList();
      JavaCompiler.CompilationTask task = javac.getTask(null, files, diagnostics, options, null,
          files.getJavaFileObjectsFromPaths(paths));
      if (with != null) {
        task.setProcessors(List.of(with.processor()));
      }
      long start = System.nanoTime();
      boolean ok = task.call();
      double ms = (System.nanoTime() - start) / 1e6;
      if (!ok || !diagnostics.getDiagnostics().isEmpty()) {
        throw new IllegalStateException("the benchmark's sources did not compile cleanly: " + diagnostics.getDiagnostics());
      }
      return ms;
    }
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  private static void deleteRecursively(Path root) {
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path p : walk.sorted(Collections.reverseOrder()).toList()) {
        Files.delete(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A processor that times the calls javac makes into the one it wraps. */
  private static final class Timed implements Processor {
    private final Processor delegate;
    long nanos;

    Timed(Processor delegate) {
      this.delegate = delegate;
    }

    @Override
    public Set<String> getSupportedOptions() {
      return delegate.getSupportedOptions();
    }

    @Override
    public Set<String> getSupportedAnnotationTypes() {
      return delegate.getSupportedAnnotationTypes();
    }

    @Override
    public SourceVersion getSupportedSourceVersion() {
      return delegate.getSupportedSourceVersion();
    }

    @Override
    public void init(ProcessingEnvironment env) {
      long start = System.nanoTime();
      delegate.init(env);
      nanos += System.nanoTime() - start;
    }

    @Override
    @SuppressWarnings("DoNotClaimAnnotations") // claims what the processor it times claims
    public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
      long start = System.nanoTime();
      try {
        return delegate.process(annotations, round);
      } finally {
        nanos += System.nanoTime() - start;
      }
    }

    @Override
    public Iterable<? extends Completion> getCompletions(Element element, AnnotationMirror annotation,
        ExecutableElement member, String userText) {
      return delegate.getCompletions(element, annotation, member, userText);
    }
  }
}
