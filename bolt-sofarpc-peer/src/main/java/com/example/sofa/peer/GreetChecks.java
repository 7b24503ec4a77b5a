package com.example.sofa.peer;

import static com.example.sofa.peer.Calls.expect;

import com.alipay.sofa.rpc.core.exception.SofaRpcException;
import com.example.sofa.hessian.GreetService;
import com.example.sofa.hessian.GreetServiceLookAlike;
import com.example.sofa.hessian.Moments;
import com.example.sofa.hessian.Greeting;
import com.example.sofa.hessian.GreetingRefused;
import com.example.sofa.hessian.Person;
import com.example.sofa.hessian.Tables;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/** The checks on GreetService, serialization hessian2. */
final class GreetChecks {
  private static final String SERVICE = GreetService.class.getName();

  private final PeerConsumer consumer;
  private final int timeout;

  GreetChecks(PeerConsumer consumer) {
    this.consumer = consumer;
    this.timeout = consumer.timeoutMs();
  }

  Map<String, PeerConsumer.Check> checks() {
    Map<String, PeerConsumer.Check> checks = new LinkedHashMap<>();
    checks.put("sync", this::sync);
    checks.put("future", this::future);
    checks.put("callback", this::callback);
    checks.put("oneway", this::oneway);
    checks.put("exception", this::exception);
    checks.put("timeout", this::timeout);
    checks.put("unknown", this::unknown);
    checks.put("unknownservice", this::unknownService);
    checks.put("spread", this::spread);
    checks.put("undeclared", this::undeclared);
    checks.put("chars", this::chars);
    checks.put("moments", this::moments);
    checks.put("arrays", this::arrays);
    return checks;
  }

  private GreetService greet(String invokeType) {
    return consumer.ref(SERVICE, GreetService.class, invokeType, timeout);
  }

  /** A Greeting with every field set, a non-ASCII name, a nested Person and a blob. */
  static Greeting full() {
    Greeting g = new Greeting();
    g.setName("Zoë 🚀");
    g.setTimes(41);
    g.setStamp(1_700_000_000_123L);
    g.setScore(1.25);
    g.setFormal(true);
    g.setTags(new ArrayList<>(List.of("x", "ÿ")));
    Map<String, Integer> counts = new LinkedHashMap<>();
    counts.put("b", 2);
    counts.put("a", 1);
    g.setCounts(counts);
    g.setFrom(new Person("Ann", 33));
    g.setBlob(new byte[] {1, 2, 3, (byte) 0xff});
    return g;
  }

  /** The same with an empty tag list, and null counts, from and blob. */
  static Greeting sparse(boolean emptyTags) {
    Greeting g = new Greeting();
    g.setName("sparse");
    g.setTags(emptyTags ? new ArrayList<>() : null);
    return g;
  }

  /** That {@code got} is greet's answer to {@code g}; what it was. */
  static String verify(Greeting g, Object got) throws PeerConsumer.Failed {
    expect(got instanceof Greeting, "not a Greeting: " + got);
    Greeting r = (Greeting) got;
    Greeting want = GreetServiceImpl.expected(g);
    boolean same = Objects.equals(r.getName(), want.getName())
        && r.getTimes() == want.getTimes()
        && r.getStamp() == want.getStamp()
        && Double.compare(r.getScore(), want.getScore()) == 0
        && r.isFormal() == want.isFormal()
        && Objects.equals(r.getTags(), want.getTags())
        // order too: the provider's LinkedHashMap keeps it, and hessian2 carries it
        && r.getCounts() != null && new ArrayList<>(r.getCounts().entrySet()).equals(new ArrayList<>(want.getCounts().entrySet()))
        && Objects.equals(r.getFrom(), want.getFrom())
        && Arrays.equals(r.getBlob(), want.getBlob());
    expect(same, "got " + r + " want " + want);
    return r.toString();
  }

  private String sync() throws Exception {
    GreetService s = greet("sync");
    Greeting full = full();
    Greeting empty = sparse(true);
    Greeting none = sparse(false);
    String out = "greet -> " + verify(full, s.greet(full))
        + "; greet(empty tags) -> " + verify(empty, s.greet(empty))
        + "; greet(null tags) -> " + verify(none, s.greet(none));
    String joined = s.join("a", 7);
    expect("a:7".equals(joined), "join(a, 7) = " + joined);
    String id = s.whoami();
    expect(id != null && !id.isEmpty(), "whoami = " + id);
    return out + "; join -> " + joined + "; whoami -> " + id;
  }

  private String future() throws Exception {
    Greeting g = full();
    return "greet -> " + verify(g, Calls.future(() -> greet("future").greet(g), timeout));
  }

  private String callback() throws Exception {
    Greeting g = full();
    return "greet -> " + verify(g, Calls.callback(() -> greet("callback").greet(g), timeout));
  }

  private String oneway() throws Exception {
    String text = "oneway-" + UUID.randomUUID();
    String target = consumer.oneProvider(SERVICE, GreetService.class, "sync", timeout);
    for (int i = 0; i < 3; i++) {
      Calls.pin(target);
      greet("oneway").ping(text);
    }
    int count = Calls.pollUntil(() -> {
      Calls.pin(target);
      return greet("sync").pings(text);
    }, 3);
    expect(count == 3, "pings says " + count + ", want 3 (" + target + ")");
    return "3 oneway pings, pings says " + count + " (" + target + ")";
  }

  private String exception() throws Exception {
    try {
      Object got = greet("sync").refuse("no way");
      throw new PeerConsumer.Failed("refuse answered " + got);
    } catch (GreetingRefused e) {
      expect(e.getClass() == GreetingRefused.class && "refused: no way".equals(e.getMessage()),
          "got " + PeerConsumer.describe(e));
      expect(e.getCode() == 409 && "customer no way is blocked".equals(e.getReason()),
          "fields lost: code " + e.getCode() + ", reason " + e.getReason());
      return PeerConsumer.describe(e) + " code=" + e.getCode() + " reason=" + e.getReason();
    } catch (SofaRpcException e) {
      throw new PeerConsumer.Failed("untyped " + PeerConsumer.describe(e) + " errorType=" + e.getErrorType());
    }
  }

  /** BigDecimal, the java.time types and a set in a DTO, there and back, each value moved on by the provider. */
  private String moments() throws Exception {
    for (Moments m : Shift.samples()) {
      Moments got = greet("sync").shift(m);
      Moments want = Shift.of(m);
      expect(want.equals(got), "shift(" + m + ") answered " + got + ", want " + want);
      expect(m.getLabels() == null || got.getLabels() instanceof java.util.LinkedHashSet,
          "labels arrived as " + (got.getLabels() == null ? null : got.getLabels().getClass()));
    }
    return Shift.samples().size() + " moments shifted, every value as sent";
  }

  /**
   * Arrays of every kind and collections inside collections in a bean, an array as an argument, there and back,
   * each turned around by the provider.
   */
  private String arrays() throws Exception {
    int[] extra = {5, -5};
    for (Tables t : Turn.samples()) {
      Tables got = greet("sync").turn(t, extra);
      Tables want = Turn.of(t, extra);
      expect(want.equals(got), "turn(" + t + ") answered " + got + ", want " + want);
    }
    return Turn.samples().size() + " tables turned, every array and nested collection as sent";
  }

  /** Chars as arguments, which Hessian2 carries as strings of one character. */
  private String chars() throws Exception {
    String got = greet("sync").initials('\u00e9', '\u4e2d') + " " + greet("sync").initials('a', null);
    expect(got.equals("\u00e9\u4e2d! a-!"), "initials answered " + got);
    return "initials -> " + got;
  }

  /** Exceptions the method does not declare arrive as themselves, typed, with their message. */
  private String undeclared() throws Exception {
    List<String> got = new ArrayList<>();
    for (String kind : List.of("state", "argument", "unsupported")) {
      RuntimeException want = GreetServiceImpl.failure(kind);
      try {
        Object answer = greet("sync").fail(kind);
        throw new PeerConsumer.Failed("fail(" + kind + ") answered " + answer);
      } catch (SofaRpcException e) {
        throw new PeerConsumer.Failed("untyped " + PeerConsumer.describe(e) + " errorType=" + e.getErrorType());
      } catch (RuntimeException e) {
        expect(e.getClass() == want.getClass() && kind.equals(e.getMessage()), "fail(" + kind + ") threw "
            + PeerConsumer.describe(e) + ", want " + want);
        got.add(PeerConsumer.describe(e));
      }
    }
    return String.join("; ", got);
  }

  private String timeout() throws Exception {
    GreetService slow = consumer.ref(SERVICE, GreetService.class, "sync", PeerConsumer.SHORT_TIMEOUT_MS);
    return Calls.timeout(() -> slow.slow(PeerConsumer.SLOW_MS), PeerConsumer.SLOW_MS);
  }

  /**
   * A service the provider does not export: the interface it has, under a uniqueId it was not given (the
   * provider has the class and the method, so it reads the request). SOFARPC's provider answers its own error naming
   * {@code <interface>:<version>:<uniqueId>}.
   */
  private String unknownService() throws Exception {
    GreetService other = consumer.refer(SERVICE, "absent", GreetService.class, "sync", timeout);
    return Calls.unknownService(other::whoami, SERVICE + ":1.0:absent");
  }

  private String unknown() throws Exception {
    GreetServiceLookAlike lookAlike = consumer.ref(SERVICE, GreetServiceLookAlike.class, "sync", timeout);
    try {
      Object got = lookAlike.missing("missing");
      throw new PeerConsumer.Failed("missing answered " + got);
    } catch (SofaRpcException e) {
      String what = PeerConsumer.describe(e) + " errorType=" + e.getErrorType();
      // the provider's own complaint names the method ("[missing]" from SOFARPC, "method missing" from boltgen);
      // anything else failed before reaching it
      expect(what.contains("[missing]") || what.contains("method missing"),
          "not the provider's unknown-method error: " + what);
      return what;
    }
  }

  private String spread() throws Exception {
    Map<String, Integer> counts = new LinkedHashMap<>();
    GreetService s = greet("sync");
    for (int i = 0; i < 400; i++) {
      counts.merge(s.whoami(), 1, Integer::sum);
    }
    return Calls.spread(counts);
  }
}
