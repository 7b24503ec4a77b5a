package io.boltgen.bench.mesh;

import io.boltgen.bench.run.Wrk;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * wrk as the {@code mesh} benchmark drives it: a Lua script that POSTs {@code {"text": "<random>"}} as JSON, the
 * string of 1 to 64 letters and digits drawn anew for every request, each wrk thread seeded {@code seed + its
 * number}; one run of it ({@link #start}, then {@link #finish}) whose process is killed if the run is abandoned.
 */
final class MeshWrk implements AutoCloseable {

  /** The longest random string. */
  static final int MAX_TEXT = 64;

  private final Process process;
  private final List<String> command;
  private final Path out;
  private final Duration duration;

  private MeshWrk(Process process, List<String> command, Path out, Duration duration) {
    this.process = process;
    this.command = command;
    this.out = out;
    this.duration = duration;
  }

  /** The Lua script: random texts, seeded per thread with {@code seed + thread number}. */
  static String script(long seed) {
    return "-- written by bolt-benchmarks (the mesh command): POST {\"text\": \"<1..64 random letters and digits>\"}\n"
        + "local alphabet = \"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789\"\n"
        + "local threads = 0\n"
        + "wrk.method = \"POST\"\n"
        + "wrk.headers[\"Content-Type\"] = \"application/json\"\n"
        + "function setup(thread)\n"
        + "  threads = threads + 1\n"
        + "  thread:set(\"number\", threads)\n"
        + "end\n"
        + "function init(args)\n"
        + "  math.randomseed(" + seed + " + number)\n"
        + "end\n"
        + "function request()\n"
        + "  local n = math.random(1, " + MAX_TEXT + ")\n"
        + "  local chars = {}\n"
        + "  for i = 1, n do\n"
        + "    local k = math.random(1, #alphabet)\n"
        + "    chars[i] = alphabet:sub(k, k)\n"
        + "  end\n"
        + "  return wrk.format(nil, nil, nil, \"{\\\"text\\\": \\\"\" .. table.concat(chars) .. \"\\\"}\")\n"
        + "end\n";
  }

  /** Writes {@link #script} to {@code file}. */
  static Path writeScript(Path file, long seed) throws IOException {
    Files.createDirectories(file.toAbsolutePath().getParent());
    Files.writeString(file, script(seed), StandardCharsets.UTF_8);
    return file;
  }

  /** Starts {@code wrk -t<threads> -c<connections> -d<duration> --latency -s script url}, its output to {@code out}. */
  static MeshWrk start(Path wrk, int threads, int connections, Duration duration, Path script, String url, Path out)
      throws IOException {
    List<String> command = Wrk.command(wrk, threads, connections, duration, script, url);
    Process p;
    try {
      p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
    } catch (IOException e) {
      throw new IOException("wrk did not start (" + String.join(" ", command) + "): " + e + "; " + Wrk.MISSING, e);
    }
    return new MeshWrk(p, command, out, duration);
  }

  /** Whether wrk still runs. */
  boolean isAlive() {
    return process.isAlive();
  }

  /** Waits for the run to end (at most 30 s past its duration) and parses wrk's report. */
  Wrk.Report finish() throws IOException, InterruptedException {
    if (!process.waitFor(Wrk.seconds(duration) + 30, TimeUnit.SECONDS)) {
      close();
      throw new IOException("wrk did not end 30 s after its duration; output: " + out);
    }
    String text = Files.readString(out, StandardCharsets.UTF_8);
    if (process.exitValue() != 0) {
      throw new IOException("wrk exited with " + process.exitValue() + " (" + String.join(" ", command) + "): "
          + text.strip().replace('\n', ' '));
    }
    try {
      return Wrk.parse(text);
    } catch (IllegalArgumentException e) {
      throw new IOException(e.getMessage().replace('\n', ' ') + " (" + out + ")", e);
    }
  }

  /** Kills wrk if it still runs. */
  @Override
  public void close() {
    MeshProcesses.stop(process, Duration.ofSeconds(2));
  }
}
