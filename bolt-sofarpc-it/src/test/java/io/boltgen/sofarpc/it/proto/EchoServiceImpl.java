package io.boltgen.sofarpc.it.proto;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/** The peer's EchoService contract, served by boltgen. */
public final class EchoServiceImpl implements EchoService {

  private final String id;
  private final Map<String, AtomicInteger> pings = new ConcurrentHashMap<>();

  public EchoServiceImpl(String id) {
    this.id = id;
  }

  @Override
  public EchoReply echo(EchoRequest r) {
    String text = (r.text() == null ? "" : r.text()).repeat(Math.max(r.times(), 1));
    return new EchoReply(text, text.length(), id);
  }

  @Override
  public EchoReply refuse(EchoRequest r) throws EchoRefusedException {
    throw new EchoRefusedException("refused: " + r.text());
  }

  @Override
  public EchoReply slow(EchoRequest r) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(r.times());
    for (long left = r.times(); left > 0; left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())) {
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(left));
    }
    return echo(r);
  }

  @Override
  public void ping(EchoRequest r) {
    pings.computeIfAbsent(String.valueOf(r.text()), k -> new AtomicInteger()).incrementAndGet();
  }

  @Override
  public Numbers negate(Numbers n) {
    return negated(n);
  }

  /** What negate answers: each number negated ({@code -x} in its bits), each list element and map value too. */
  public static Numbers negated(Numbers n) {
    Map<Long, Long> values = new LinkedHashMap<>();
    n.uint64BySint64().forEach((k, v) -> values.put(k, -v));
    return new Numbers(-n.int32(), -n.int64(), -n.uint32(), -n.uint64(), -n.sint32(), -n.sint64(), -n.fixed32(),
        -n.fixed64(), -n.sfixed32(), -n.sfixed64(), n.sint32s().stream().map(x -> -x).toList(), values);
  }

  @Override
  public EchoReply pings(EchoRequest r) {
    AtomicInteger n = pings.get(String.valueOf(r.text()));
    return new EchoReply(null, n == null ? 0 : n.get(), id);
  }
}
