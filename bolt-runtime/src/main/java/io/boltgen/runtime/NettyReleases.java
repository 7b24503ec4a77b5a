package io.boltgen.runtime;

import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Netty version strings in the order of Netty's releases, and the check behind
 * {@link NettyVersion#requireSupported()}: which Netty artifacts the runtime uses, and whether any of them is
 * older than required.
 *
 * <p>A version is its leading numbers ({@code 4.2.18}), compared as numbers with missing ones 0, then its
 * qualifier: {@code Alpha} &lt; {@code Beta} &lt; {@code CR}/{@code RC} &lt; {@code Final} (or none, or one
 * not known: a vendor's rebuild such as {@code 4.2.18.Final-redhat-00001} is its release), each with its
 * number ({@code Alpha1} &lt; {@code Alpha2}); a {@code -SNAPSHOT} comes just before the version it is a
 * snapshot of. A string that does not start with a number is no version, and is not judged.
 */
final class NettyReleases {

  /**
   * The Netty artifacts bolt-runtime uses, directly or through the ones it declares; {@code netty-codec} is
   * the name {@code netty-codec-base}'s classes had before 4.2. Others a class path may hold (HTTP codecs,
   * tcnative, with versions of its own) do not concern the runtime.
   */
  static final Set<String> RUNTIME_ARTIFACTS = Set.of("netty-common", "netty-buffer", "netty-resolver",
      "netty-transport", "netty-codec-base", "netty-codec", "netty-handler", "netty-transport-native-unix-common",
      "netty-transport-classes-epoll", "netty-transport-native-epoll");

  private static final Pattern VERSION = Pattern.compile("(\\d{1,9}(?:\\.\\d{1,9})*)(?:[.-](.*))?");
  private static final Pattern STAGE = Pattern.compile("(?i)(alpha|beta|cr|rc|final|ga|release)(\\d{0,9})");
  private static final int FINAL = 3;

  private NettyReleases() {}

  /**
   * Checks the artifacts the runtime uses among {@code versions} (artifact id to version, as Netty's
   * version information lists them) against {@code required}.
   *
   * @return false if none of them has a version to judge (the check could not be made), true if all are
   *     {@code required} or newer
   * @throws NettyVersion.UnsupportedException if one is older; it names every one of them
   */
  static boolean check(String required, Map<String, String> versions) {
    Map<String, String> used = new TreeMap<>();
    versions.forEach((artifact, version) -> {
      if (RUNTIME_ARTIFACTS.contains(artifact)) {
        used.put(artifact, version);
      }
    });
    if (used.values().stream().noneMatch(v -> parse(v) != null)) {
      return false;
    }
    if (used.values().stream().anyMatch(v -> isOlder(v, required))) {
      throw new NettyVersion.UnsupportedException(required, used);
    }
    return true;
  }

  /** Whether {@code version} is a version older than {@code required} (false if either is no version). */
  static boolean isOlder(String version, String required) {
    Release found = parse(version);
    Release needed = parse(required);
    return found != null && needed != null && found.compareTo(needed) < 0;
  }

  /** {@code version} parsed, or null if it does not start with a number. */
  static Release parse(String version) {
    Matcher m = VERSION.matcher(version.trim());
    if (!m.matches()) {
      return null;
    }
    int[] numbers = Arrays.stream(m.group(1).split("\\.")).mapToInt(Integer::parseInt).toArray();
    String qualifier = m.group(2) == null ? "" : m.group(2);
    int stage = FINAL;
    int stageNumber = 0;
    Matcher s = STAGE.matcher(qualifier.split("[.-]", 2)[0]);
    if (s.matches()) {
      String name = s.group(1).toLowerCase(Locale.ROOT);
      stage = switch (name) {
        case "alpha" -> 0;
        case "beta" -> 1;
        case "cr", "rc" -> 2;
        default -> FINAL;
      };
      stageNumber = s.group(2).isEmpty() ? 0 : Integer.parseInt(s.group(2));
    }
    boolean snapshot = qualifier.toUpperCase(Locale.ROOT).endsWith("SNAPSHOT");
    return new Release(numbers, stage, stageNumber, snapshot);
  }

  /** A parsed version, ordered as the class comment says. */
  static final class Release implements Comparable<Release> {

    private final int[] numbers;
    private final int stage;
    private final int stageNumber;
    private final boolean snapshot;

    Release(int[] numbers, int stage, int stageNumber, boolean snapshot) {
      this.numbers = numbers;
      this.stage = stage;
      this.stageNumber = stageNumber;
      this.snapshot = snapshot;
    }

    @Override
    public int compareTo(Release other) {
      for (int i = 0; i < Math.max(numbers.length, other.numbers.length); i++) {
        int c = Integer.compare(i < numbers.length ? numbers[i] : 0,
            i < other.numbers.length ? other.numbers[i] : 0);
        if (c != 0) {
          return c;
        }
      }
      int c = Integer.compare(stage, other.stage);
      if (c == 0) {
        c = Integer.compare(stageNumber, other.stageNumber);
      }
      return c != 0 ? c : Boolean.compare(other.snapshot, snapshot);
    }
  }
}
