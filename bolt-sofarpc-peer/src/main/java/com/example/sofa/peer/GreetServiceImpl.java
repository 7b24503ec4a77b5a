package com.example.sofa.peer;

import com.example.sofa.hessian.GreetService;
import com.example.sofa.hessian.Greeting;
import com.example.sofa.hessian.GreetingRefused;
import com.example.sofa.hessian.Moments;
import com.example.sofa.hessian.Tables;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The provider's GreetService: the contract in {@link GreetService}'s comments. */
final class GreetServiceImpl implements GreetService {
  private final String id;
  private final Pings pings = new Pings();

  GreetServiceImpl(String id) {
    this.id = id;
  }

  /**
   * What greet answers to {@code g}; the consumer's checks expect the same. Null tags and counts are taken as
   * empty (the answer has ["seen"] and {server=1}); a null name becomes "hello null".
   */
  static Greeting expected(Greeting g) {
    Greeting out = new Greeting();
    out.setName("hello " + g.getName());
    out.setTimes(g.getTimes() + 1);
    out.setStamp(g.getStamp());
    out.setScore(g.getScore() * 2);
    out.setFormal(!g.isFormal());
    List<String> tags = g.getTags() == null ? new ArrayList<>() : new ArrayList<>(g.getTags());
    tags.add("seen");
    out.setTags(tags);
    Map<String, Integer> counts = g.getCounts() == null ? new LinkedHashMap<>() : new LinkedHashMap<>(g.getCounts());
    counts.put("server", 1);
    out.setCounts(counts);
    out.setFrom(g.getFrom());
    byte[] blob = g.getBlob();
    if (blob != null) {
      byte[] reversed = new byte[blob.length];
      for (int i = 0; i < blob.length; i++) {
        reversed[i] = blob[blob.length - 1 - i];
      }
      out.setBlob(reversed);
    }
    return out;
  }

  @Override
  public Greeting greet(Greeting g) {
    return expected(g);
  }

  /** The exception fail throws for {@code kind}; the consumer's checks expect the same. */
  static RuntimeException failure(String kind) {
    switch (kind) {
      case "state":
        return new IllegalStateException(kind);
      case "argument":
        return new IllegalArgumentException(kind);
      default:
        return new UnsupportedOperationException(kind);
    }
  }

  @Override
  public Moments shift(Moments m) {
    return Shift.of(m);
  }

  @Override
  public Tables turn(Tables t, int[] extra) {
    return Turn.of(t, extra);
  }

  @Override
  public String initials(char c, Character boxed) {
    return "" + c + (boxed == null ? '-' : boxed.charValue()) + '!';
  }

  @Override
  public String fail(String kind) {
    throw failure(kind);
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
    Sleep.millis(millis);
    return "slept " + millis;
  }

  @Override
  public void ping(String text) {
    pings.record(text);
  }

  @Override
  public int pings(String text) {
    return pings.count(text);
  }

  @Override
  public String whoami() {
    return id;
  }
}
