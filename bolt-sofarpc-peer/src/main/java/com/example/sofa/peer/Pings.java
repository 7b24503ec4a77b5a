package com.example.sofa.peer;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;

/** The pings a provider recorded, by text (for the oneway checks). */
final class Pings {
  private final ConcurrentMap<String, AtomicInteger> counts = new ConcurrentHashMap<>();

  void record(String text) {
    counts.computeIfAbsent(text, t -> new AtomicInteger()).incrementAndGet();
  }

  int count(String text) {
    AtomicInteger n = counts.get(text);
    return n == null ? 0 : n.get();
  }
}
