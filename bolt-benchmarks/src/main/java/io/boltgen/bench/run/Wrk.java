package io.boltgen.bench.run;

import io.boltgen.testing.ReadyProcess;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Debian's {@code wrk} as the {@code http} and {@code mesh} commands drive it: where it is, the Lua scripts (one fixed
 * POST, its body written into the script as an escaped Lua string so binary protobuf bodies travel byte for byte; or
 * random texts), its command line, one run of it ({@link #start}), and what its {@code --latency} report says. The
 * parser reads wrk 4's text (units {@code us}, {@code ms}, {@code s}, {@code m}, {@code h}; the socket error and
 * non-2xx lines only when wrk prints them) and fails, quoting the text, when a number it needs is missing.
 */
public final class Wrk {

  /** What the command says when there is no wrk. */
  public static final String MISSING = "install wrk (apt-get install wrk)";

  private static final Pattern REQUESTS = Pattern.compile("^\\s*(\\d+) requests in ([0-9.]+)(us|ms|s|m|h),", Pattern.MULTILINE);
  private static final Pattern RATE = Pattern.compile("^Requests/sec:\\s*([0-9.]+)\\s*$", Pattern.MULTILINE);
  private static final Pattern PERCENTILE = Pattern.compile("^\\s*([0-9.]+)%\\s+([0-9.]+)(us|ms|s|m|h)\\s*$",
      Pattern.MULTILINE);
  private static final Pattern LATENCY = Pattern.compile(
      "^\\s*Latency\\s+([0-9.]+)(us|ms|s|m|h)\\s+([0-9.]+)(us|ms|s|m|h)\\s+([0-9.]+)(us|ms|s|m|h)", Pattern.MULTILINE);
  private static final Pattern SOCKET = Pattern.compile(
      "Socket errors: connect (\\d+), read (\\d+), write (\\d+), timeout (\\d+)");
  private static final Pattern STATUS = Pattern.compile("Non-2xx or 3xx responses: (\\d+)");

  private Wrk() {}

  /**
   * What one wrk run reported. Latencies in microseconds.
   *
   * @param requests requests completed (answered, whatever the status)
   * @param seconds how long wrk ran, by its own account
   * @param requestsPerSecond wrk's {@code Requests/sec}
   * @param non2xx answers with a status of 400 or more (wrk's "Non-2xx or 3xx responses", which counts those)
   */
  public record Report(long requests, double seconds, double requestsPerSecond, double p50Us, double p75Us,
      double p90Us, double p99Us, double maxUs, long non2xx, long connectErrors, long readErrors, long writeErrors,
      long timeouts) {

    /** Non-2xx answers and socket errors together. */
    public long errors() {
      return non2xx + connectErrors + readErrors + writeErrors + timeouts;
    }

    /** What went wrong, in words; empty when nothing did. */
    public String errorText() {
      if (errors() == 0) {
        return "";
      }
      return String.format(Locale.ROOT, "non-2xx %d; socket errors: connect %d, read %d, write %d, timeout %d", non2xx,
          connectErrors, readErrors, writeErrors, timeouts);
    }
  }

  /**
   * The wrk to run: {@code explicit} if given (a path), else {@code wrk} on the {@code PATH}.
   *
   * @throws IllegalArgumentException saying {@value #MISSING} when there is none
   */
  public static Path find(String explicit, String pathVariable) {
    if (explicit != null) {
      Path p = Path.of(explicit);
      if (Files.isRegularFile(p) && Files.isExecutable(p)) {
        return p;
      }
      throw new IllegalArgumentException("no wrk at " + explicit + ": " + MISSING);
    }
    for (String dir : (pathVariable == null ? "" : pathVariable).split(File.pathSeparator)) {
      if (dir.isEmpty()) {
        continue;
      }
      Path p = Path.of(dir, "wrk");
      if (Files.isRegularFile(p) && Files.isExecutable(p)) {
        return p;
      }
    }
    throw new IllegalArgumentException("no wrk on the PATH: " + MISSING);
  }

  /** The Lua script of one request, sent again and again on every connection: {@code POST} with this body. */
  public static String script(String contentType, byte[] body) {
    return "-- written by bolt-benchmarks (the http command): one fixed request, sent again as soon as its answer came\n"
        + "wrk.method = \"POST\"\n"
        + "wrk.headers[\"Content-Type\"] = " + luaString(contentType.getBytes(StandardCharsets.US_ASCII)) + "\n"
        + "wrk.body = " + luaString(body) + "\n";
  }

  /**
   * The Lua script of random texts: {@code POST {"text": "<random>"}} as JSON, the string of 1 to {@code maxText}
   * letters and digits drawn anew for every request, each wrk thread seeded {@code seed + its number}.
   */
  public static String randomTextScript(long seed, int maxText) {
    return "-- written by bolt-benchmarks (the mesh command): POST {\"text\": \"<1.." + maxText
        + " random letters and digits>\"}\n"
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
        + "  local n = math.random(1, " + maxText + ")\n"
        + "  local chars = {}\n"
        + "  for i = 1, n do\n"
        + "    local k = math.random(1, #alphabet)\n"
        + "    chars[i] = alphabet:sub(k, k)\n"
        + "  end\n"
        + "  return wrk.format(nil, nil, nil, \"{\\\"text\\\": \\\"\" .. table.concat(chars) .. \"\\\"}\")\n"
        + "end\n";
  }

  /** Writes {@code script} to {@code file}; the file. */
  public static Path writeScript(Path file, String script) throws IOException {
    Files.createDirectories(file.toAbsolutePath().getParent());
    Files.writeString(file, script, StandardCharsets.UTF_8);
    return file;
  }

  /**
   * Starts one run of wrk ({@link #command}), its output to {@code out}: {@link Run#finish} waits for its report, and
   * closing the run kills wrk if it still runs.
   */
  public static Run start(Path wrk, int threads, int connections, Duration duration, Path script, String url, Path out)
      throws IOException {
    List<String> command = command(wrk, threads, connections, duration, script, url);
    try {
      return new Run(ReadyProcess.launcher(command).log(out).run(), command, duration);
    } catch (IOException e) {
      throw new IOException(e.getMessage() + "; " + MISSING, e);
    }
  }

  /** One run of wrk under way. */
  public static final class Run implements AutoCloseable {
    private final ReadyProcess process;
    private final List<String> command;
    private final Duration duration;

    private Run(ReadyProcess process, List<String> command, Duration duration) {
      this.process = process;
      this.command = command;
      this.duration = duration;
    }

    /** Whether wrk still runs. */
    public boolean isAlive() {
      return process.isAlive();
    }

    /** Waits for the run to end (at most 30 s past its duration) and parses wrk's report; fails quoting wrk. */
    public Report finish() throws IOException, InterruptedException {
      int status = process.finish(Duration.ofSeconds(seconds(duration) + 30));
      String text = process.log();
      if (status != 0) {
        throw new IOException("wrk exited with " + status + " (" + String.join(" ", command) + "): "
            + text.strip().replace('\n', ' '));
      }
      try {
        return parse(text);
      } catch (IllegalArgumentException e) {
        throw new IOException(e.getMessage().replace('\n', ' ') + " (" + process.logFile() + ")", e);
      }
    }

    /** Stops wrk if it still runs ({@link ReadyProcess#close}: SIGTERM, then SIGKILL after 30 s). */
    @Override
    public void close() throws IOException {
      process.close();
    }
  }

  /**
   * {@code bytes} as a Lua string literal, in double quotes: printable ASCII as itself (but {@code "} and
   * {@code \}), every other byte as a three-digit decimal escape ({@code \000} to {@code \255}; three digits always,
   * so a digit that follows is never read as part of the escape). Lua strings are byte strings: no encoding.
   */
  static String luaString(byte[] bytes) {
    StringBuilder sb = new StringBuilder(bytes.length * 2 + 2).append('"');
    for (byte b : bytes) {
      int v = b & 0xff;
      if (v >= 0x20 && v < 0x7f && v != '"' && v != '\\') {
        sb.append((char) v);
      } else {
        sb.append('\\').append(String.format(Locale.ROOT, "%03d", v));
      }
    }
    return sb.append('"').toString();
  }

  /** wrk's command line: {@code threads} threads, {@code connections} keep-alive connections, for {@code duration}. */
  public static List<String> command(Path wrk, int threads, int connections, Duration duration, Path script,
      String url) {
    List<String> cmd = new ArrayList<>();
    cmd.add(wrk.toString());
    cmd.add("-t" + threads);
    cmd.add("-c" + connections);
    cmd.add("-d" + seconds(duration) + "s");
    cmd.add("--latency");
    cmd.add("-s");
    cmd.add(script.toString());
    cmd.add(url);
    return cmd;
  }

  /** wrk takes whole seconds: {@code duration} rounded, at least 1. */
  public static long seconds(Duration duration) {
    return Math.max(1, Math.round(duration.toMillis() / 1000.0));
  }

  /** Parses wrk's output; fails, quoting it, if the requests, their rate or a latency percentile is missing. */
  public static Report parse(String text) {
    Matcher requests = REQUESTS.matcher(text);
    Matcher rate = RATE.matcher(text);
    if (!requests.find() || !rate.find()) {
      throw new IllegalArgumentException("not a wrk report (no \"N requests in T\" or \"Requests/sec\" line):\n" + text);
    }
    double p50 = Double.NaN;
    double p75 = Double.NaN;
    double p90 = Double.NaN;
    double p99 = Double.NaN;
    int distribution = text.indexOf("Latency Distribution");
    if (distribution < 0) {
      throw new IllegalArgumentException("no latency distribution in the wrk report (was --latency given?):\n" + text);
    }
    Matcher p = PERCENTILE.matcher(text);
    p.region(distribution, text.length());
    while (p.find()) {
      double at = Double.parseDouble(p.group(1));
      double us = micros(p.group(2), p.group(3));
      if (at == 50) {
        p50 = us;
      } else if (at == 75) {
        p75 = us;
      } else if (at == 90) {
        p90 = us;
      } else if (at == 99) {
        p99 = us;
      }
    }
    if (Double.isNaN(p50) || Double.isNaN(p99)) {
      throw new IllegalArgumentException("no 50% or 99% latency in the wrk report:\n" + text);
    }
    Matcher latency = LATENCY.matcher(text);
    double max = latency.find() ? micros(latency.group(5), latency.group(6)) : Double.NaN;
    Matcher socket = SOCKET.matcher(text);
    boolean socketErrors = socket.find();
    Matcher status = STATUS.matcher(text);
    return new Report(Long.parseLong(requests.group(1)), micros(requests.group(2), requests.group(3)) / 1e6,
        Double.parseDouble(rate.group(1)), p50, p75, p90, p99, max, status.find() ? Long.parseLong(status.group(1)) : 0,
        socketErrors ? Long.parseLong(socket.group(1)) : 0, socketErrors ? Long.parseLong(socket.group(2)) : 0,
        socketErrors ? Long.parseLong(socket.group(3)) : 0, socketErrors ? Long.parseLong(socket.group(4)) : 0);
  }

  /** {@code value} {@code unit} in microseconds. */
  static double micros(String value, String unit) {
    double v = Double.parseDouble(value);
    switch (unit) {
      case "us":
        return v;
      case "ms":
        return v * 1e3;
      case "s":
        return v * 1e6;
      case "m":
        return v * 60e6;
      case "h":
        return v * 3600e6;
      default:
        throw new IllegalArgumentException("unknown time unit " + unit);
    }
  }
}
