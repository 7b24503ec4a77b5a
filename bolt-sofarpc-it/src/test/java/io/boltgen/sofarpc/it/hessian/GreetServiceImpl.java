package io.boltgen.sofarpc.it.hessian;

import java.math.BigDecimal;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/** The peer's GreetService contract, served by boltgen. */
public final class GreetServiceImpl implements GreetService {

  private final String id;
  private final Map<String, AtomicInteger> pings = new ConcurrentHashMap<>();

  public GreetServiceImpl(String id) {
    this.id = id;
  }

  @Override
  public Greeting greet(Greeting g) {
    List<String> tags = new ArrayList<>(g.tags() == null ? List.of() : g.tags());
    tags.add("seen");
    Map<String, Integer> counts = new LinkedHashMap<>(g.counts() == null ? Map.of() : g.counts());
    counts.put("server", 1);
    byte[] blob = null;
    if (g.blob() != null) {
      blob = new byte[g.blob().length];
      for (int i = 0; i < blob.length; i++) {
        blob[i] = g.blob()[blob.length - 1 - i];
      }
    }
    return new Greeting("hello " + g.name(), g.times() + 1, g.stamp(), g.score() * 2, !g.formal(), tags, counts,
        g.from(), blob);
  }

  @Override
  public String join(String a, int b) {
    return a + ":" + b;
  }

  @Override
  public Greeting refuse(String why) throws GreetingRefused {
    throw new GreetingRefused("refused: " + why, 409, "customer " + why + " is blocked");
  }

  @Override
  public String slow(int millis) {
    parkFor(millis);
    return "slept " + millis;
  }

  @Override
  public void ping(String text) {
    pings.computeIfAbsent(text, k -> new AtomicInteger()).incrementAndGet();
  }

  @Override
  public int pings(String text) {
    AtomicInteger n = pings.get(text);
    return n == null ? 0 : n.get();
  }

  @Override
  public String whoami() {
    return id;
  }

  @Override
  @SuppressWarnings("JavaUtilDate") // a DTO's Date is what is tested
  public Moments shift(Moments m) {
    Set<String> labels = null;
    if (m.labels() != null) {
      labels = new LinkedHashSet<>(m.labels());
      labels.add("seen");
    }
    return new Moments(m.amount() == null ? null : m.amount().multiply(BigDecimal.valueOf(2)),
        m.at() == null ? null : m.at().plusSeconds(1), m.pause() == null ? null : m.pause().plusMillis(1),
        m.day() == null ? null : m.day().plusDays(1), m.time() == null ? null : m.time().plusHours(1),
        m.when() == null ? null : m.when().plusDays(1), labels,
        m.seen() == null ? null : new Date(m.seen().getTime() + 1000),
        m.entered() == null ? null : new Timestamp(m.entered().getTime() + 1000),
        m.count() == null ? null : m.count().add(java.math.BigInteger.ONE),
        m.id() == null ? null : new java.util.UUID(m.id().getMostSignificantBits(), m.id().getLeastSignificantBits() + 1));
  }

  @Override
  public String initials(char c, Character boxed) {
    return "" + c + (boxed == null ? '-' : boxed.charValue()) + '!';
  }

  @Override
  public String fail(String kind) {
    switch (kind) {
      case "state":
        throw new IllegalStateException(kind);
      case "argument":
        throw new IllegalArgumentException(kind);
      default:
        throw new UnsupportedOperationException(kind);
    }
  }

  /** A slow handler, as the contract asks (the caller's timeout is what is under test). */
  static void parkFor(long millis) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    for (long left = millis; left > 0; left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())) {
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(left));
    }
  }

  /**
   * Every array and the rows reversed (null stays null), then {@code extra} after the ints, byName as it came: as
   * the SOFARPC provider does.
   */
  @Override
  public Tables turn(Tables t, int[] extra) {
    int[] ints = t.ints() == null ? null : reversed(t.ints());
    if (ints != null && extra != null) {
      int[] joined = java.util.Arrays.copyOf(ints, ints.length + extra.length);
      System.arraycopy(extra, 0, joined, ints.length, extra.length);
      ints = joined;
    }
    return new Tables(ints, reversed(t.longs()), reversed(t.flags()), reversed(t.shorts()), reversed(t.letters()),
        reversed(t.ratios()), reversed(t.doubles()), reversed(t.boxed()), reversed(t.names()), reversed(t.blobs()),
        reversed(t.people()), reversed(t.moods()), reversed(t.amounts()), reversed(t.dates()), reversed(t.grid()),
        t.rows() == null ? null : reversedList(t.rows()), t.byName());
  }

  private static <E> java.util.List<E> reversedList(java.util.List<E> list) {
    java.util.List<E> turned = new java.util.ArrayList<>(list);
    java.util.Collections.reverse(turned);
    return turned;
  }

  @SuppressWarnings("unchecked") // a copy of the array's own class
  private static <A> A reversed(A array) {
    if (array == null) {
      return null;
    }
    int n = java.lang.reflect.Array.getLength(array);
    A copy = (A) java.lang.reflect.Array.newInstance(array.getClass().getComponentType(), n);
    for (int i = 0; i < n; i++) {
      java.lang.reflect.Array.set(copy, i, java.lang.reflect.Array.get(array, n - 1 - i));
    }
    return copy;
  }
}
