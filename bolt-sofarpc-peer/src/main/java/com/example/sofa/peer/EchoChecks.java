package com.example.sofa.peer;

import static com.example.sofa.peer.Calls.expect;

import com.alipay.sofa.rpc.core.exception.SofaRpcException;
import com.example.sofa.proto.EchoRefusedException;
import com.example.sofa.proto.EchoReply;
import com.example.sofa.proto.EchoRequest;
import com.example.sofa.proto.EchoService;
import com.example.sofa.proto.EchoServiceLookAlike;
import com.example.sofa.proto.Numbers;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/** The checks on EchoService, serialization protobuf. */
final class EchoChecks {
  private static final String SERVICE = EchoService.class.getName();

  private final PeerConsumer consumer;
  private final int timeout;

  EchoChecks(PeerConsumer consumer) {
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
    checks.put("numbers", this::numbers);
    checks.put("defaults", this::defaults);
    return checks;
  }

  private EchoService echo(String invokeType) {
    return consumer.ref(SERVICE, EchoService.class, invokeType, timeout);
  }

  private static EchoRequest request(String text, int times) {
    return EchoRequest.newBuilder().setText(text).setTimes(times).build();
  }

  /** That {@code got} is echo's answer to {@code r}, from some provider; what it was. */
  private static String verify(EchoRequest r, Object got) throws PeerConsumer.Failed {
    expect(got instanceof EchoReply, "not an EchoReply: " + got);
    EchoReply reply = (EchoReply) got;
    EchoReply want = EchoServiceImpl.expected(r, reply.getServer());
    expect(!reply.getServer().isEmpty() && reply.equals(want),
        "got " + text(reply) + " want " + text(want));
    return text(reply);
  }

  private static String text(EchoReply r) {
    return "EchoReply{text=" + r.getText() + ", length=" + r.getLength() + ", server=" + r.getServer() + "}";
  }

  private String sync() throws Exception {
    EchoRequest r = request("héllo 🚀", 3);
    EchoRequest once = request("x", 0);
    return "echo -> " + verify(r, echo("sync").echo(r)) + "; echo(times 0) -> " + verify(once, echo("sync").echo(once));
  }

  private String future() throws Exception {
    EchoRequest r = request("future ✓", 2);
    return "echo -> " + verify(r, Calls.future(() -> echo("future").echo(r), timeout));
  }

  private String callback() throws Exception {
    EchoRequest r = request("callback ✓", 2);
    return "echo -> " + verify(r, Calls.callback(() -> echo("callback").echo(r), timeout));
  }

  private String oneway() throws Exception {
    EchoRequest r = request("oneway-" + UUID.randomUUID(), 1);
    String target = consumer.oneProvider(SERVICE, EchoService.class, "sync", timeout);
    for (int i = 0; i < 3; i++) {
      Calls.pin(target);
      Object got = echo("oneway").ping(r);
      expect(got == null, "a oneway call returned " + got);
    }
    int count = Calls.pollUntil(() -> {
      Calls.pin(target);
      return echo("sync").pings(r).getLength();
    }, 3);
    expect(count == 3, "pings says " + count + ", want 3 (" + target + ")");
    return "3 oneway pings, pings says " + count + " (" + target + ")";
  }

  private String exception() throws Exception {
    EchoRequest r = request("no way", 1);
    try {
      Object got = echo("sync").refuse(r);
      throw new PeerConsumer.Failed("refuse answered " + got);
    } catch (EchoRefusedException e) {
      // not what SOFARPC's protobuf serializer does: the test expects the SofaRpcException below
      throw new PeerConsumer.Failed("typed " + PeerConsumer.describe(e));
    } catch (SofaRpcException e) {
      String what = PeerConsumer.describe(e) + " errorType=" + e.getErrorType();
      expect(String.valueOf(e.getMessage()).contains("refused: no way"), "message lacks 'refused: no way': " + what);
      return what;
    }
  }

  private String timeout() throws Exception {
    EchoService slow = consumer.ref(SERVICE, EchoService.class, "sync", PeerConsumer.SHORT_TIMEOUT_MS);
    return Calls.timeout(() -> slow.slow(request("slow", PeerConsumer.SLOW_MS)), PeerConsumer.SLOW_MS);
  }

  /**
   * A service the provider does not export: the interface it has, under a uniqueId it was not given (the
   * provider has the class and the method, so it reads the request). SOFARPC's provider answers its own error naming
   * {@code <interface>:<version>:<uniqueId>}.
   */
  private String unknownService() throws Exception {
    EchoService other = consumer.refer(SERVICE, "absent", EchoService.class, "sync", timeout);
    return Calls.unknownService(() -> other.echo(request("absent", 1)), SERVICE + ":1.0:absent");
  }

  private String unknown() throws Exception {
    EchoServiceLookAlike lookAlike = consumer.ref(SERVICE, EchoServiceLookAlike.class, "sync", timeout);
    try {
      Object got = lookAlike.missing(request("missing", 1));
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

  /** Every integer type of protobuf, negative and extreme values included, there and back. */
  private String numbers() throws Exception {
    Numbers n = Numbers.newBuilder().setInt32(Integer.MIN_VALUE).setInt64(-42).setUint32(-1).setUint64(-1)
        .setSint32(-42).setSint64(Long.MIN_VALUE).setFixed32(Integer.MIN_VALUE).setFixed64(1)
        .setSfixed32(-2147483607).setSfixed64(Long.MAX_VALUE).addSint32S(-42).addSint32S(Integer.MAX_VALUE)
        .putUint64BySint64(-42, 1).putUint64BySint64(Long.MAX_VALUE, -1).build();
    Object got = echo("sync").negate(n);
    Numbers want = EchoServiceImpl.negated(n);
    expect(want.equals(got), "negate answered " + got + " want " + want);
    Object back = echo("sync").negate(want);
    expect(n.equals(back), "negate of the answer gave " + back + " want " + n);
    return "negate -> sint32 " + ((Numbers) got).getSint32() + ", uint32 " + Integer.toUnsignedString(want.getUint32())
        + ", uint64 " + Long.toUnsignedString(((Numbers) got).getUint64()) + ", every field as expected";
  }

  /**
   * The all-default message there and back: its answer parses to exactly the default message, no unknown field
   * beside it. Only against a boltgen provider: SOFARPC's own consumer sends the default message as an empty body,
   * which SOFARPC's own provider refuses ("Content of request is null").
   */
  private String defaults() throws Exception {
    Object none = echo("sync").negate(Numbers.getDefaultInstance());
    expect(Numbers.getDefaultInstance().equals(none), "negate of the default message gave " + none
        + (none instanceof Numbers m ? " with unknown fields " + m.getUnknownFields().asMap().keySet() : ""));
    return "negate(default) -> the default message, no unknown field";
  }

  private String spread() throws Exception {
    Map<String, Integer> counts = new LinkedHashMap<>();
    EchoRequest r = request("spread", 1);
    for (int i = 0; i < 400; i++) {
      counts.merge(echo("sync").echo(r).getServer(), 1, Integer::sum);
    }
    return Calls.spread(counts);
  }
}
