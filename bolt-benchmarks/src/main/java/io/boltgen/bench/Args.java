package io.boltgen.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** {@code command --key value --key=value --flag} command lines. */
final class Args {

  private final String command;
  private final Map<String, String> values = new LinkedHashMap<>();
  private final Set<String> used = new HashSet<>();

  private Args(String command) {
    this.command = command;
  }

  static Args parse(String[] argv, Set<String> flags) {
    int i = 0;
    String command = "all";
    if (argv.length > 0 && !argv[0].startsWith("--")) {
      command = argv[0];
      i = 1;
    }
    Args a = new Args(command);
    for (; i < argv.length; i++) {
      String arg = argv[i];
      if (!arg.startsWith("--")) {
        throw new IllegalArgumentException("unexpected argument " + arg);
      }
      String key = arg.substring(2);
      String value;
      int eq = key.indexOf('=');
      if (eq >= 0) {
        value = key.substring(eq + 1);
        key = key.substring(0, eq);
      } else if (flags.contains(key)) {
        value = "true";
      } else {
        if (i + 1 >= argv.length) {
          throw new IllegalArgumentException("--" + key + " needs a value");
        }
        value = argv[++i];
      }
      a.values.put(key, value);
    }
    return a;
  }

  String command() {
    return command;
  }

  boolean has(String key) {
    used.add(key);
    return values.containsKey(key);
  }

  String get(String key, String fallback) {
    used.add(key);
    return values.getOrDefault(key, fallback);
  }

  String require(String key) {
    used.add(key);
    String v = values.get(key);
    if (v == null) {
      throw new IllegalArgumentException("--" + key + " is required");
    }
    return v;
  }

  int getInt(String key, int fallback) {
    return Integer.parseInt(get(key, Integer.toString(fallback)));
  }

  boolean flag(String key) {
    return Boolean.parseBoolean(get(key, "false"));
  }

  /** A duration in seconds (decimals allowed). */
  Duration seconds(String key, double fallback) {
    double s = Double.parseDouble(get(key, Double.toString(fallback)));
    if (s <= 0) {
      throw new IllegalArgumentException("--" + key + " must be positive");
    }
    return Duration.ofMillis(Math.round(s * 1000));
  }

  /** A list split on whitespace; empty if absent. */
  List<String> words(String key) {
    String v = get(key, "").trim();
    return v.isEmpty() ? new ArrayList<>() : new ArrayList<>(Arrays.asList(v.split("\\s+")));
  }

  /** A comma-separated list; {@code fallback} if absent. */
  List<String> list(String key, String fallback) {
    List<String> out = new ArrayList<>();
    for (String s : get(key, fallback).split(",")) {
      if (!s.isBlank()) {
        out.add(s.trim());
      }
    }
    return out;
  }

  /** Fails on options nobody asked for (typos). */
  void checkAllUsed() {
    for (String key : values.keySet()) {
      if (!used.contains(key)) {
        throw new IllegalArgumentException("unknown option --" + key + " for '" + command + "'");
      }
    }
  }
}
