package io.boltgen.sofarpc.it.own;

import com.example.sofa.proto.EchoReply;
import com.example.sofa.proto.EchoRequest;
import com.example.sofa.proto.Numbers;
import io.boltgen.sofarpc.it.proto.EchoRefusedException;
import io.boltgen.sofarpc.it.proto.EchoServiceImpl;

/** The peer's EchoService contract over the provider's own classes: {@link EchoServiceImpl}'s, converted. */
public final class OwnClassesEcho implements EchoServiceOwnClasses {

  private final EchoServiceImpl records;

  public OwnClassesEcho(String id) {
    this.records = new EchoServiceImpl(id);
  }

  private static io.boltgen.sofarpc.it.proto.EchoRequest record(EchoRequest r) {
    return new io.boltgen.sofarpc.it.proto.EchoRequest(r.getText(), r.getTimes());
  }

  private static EchoReply reply(io.boltgen.sofarpc.it.proto.EchoReply r) {
    EchoReply.Builder b = EchoReply.newBuilder().setLength(r.length());
    if (r.text() != null) {
      b.setText(r.text());
    }
    if (r.server() != null) {
      b.setServer(r.server());
    }
    return b.build();
  }

  @Override
  public EchoReply echo(EchoRequest r) {
    return reply(records.echo(record(r)));
  }

  @Override
  public EchoReply refuse(EchoRequest r) throws EchoRefusedException {
    return reply(records.refuse(record(r)));
  }

  @Override
  public EchoReply slow(EchoRequest r) {
    return reply(records.slow(record(r)));
  }

  @Override
  public void ping(EchoRequest r) {
    records.ping(record(r));
  }

  @Override
  public EchoReply pings(EchoRequest r) {
    return reply(records.pings(record(r)));
  }

  /** What negate answers: each number negated ({@code -x} in its bits), each list element and map value too. */
  public static Numbers negated(Numbers n) {
    Numbers.Builder b = Numbers.newBuilder()
        .setInt32(-n.getInt32()).setInt64(-n.getInt64()).setUint32(-n.getUint32()).setUint64(-n.getUint64())
        .setSint32(-n.getSint32()).setSint64(-n.getSint64()).setFixed32(-n.getFixed32()).setFixed64(-n.getFixed64())
        .setSfixed32(-n.getSfixed32()).setSfixed64(-n.getSfixed64());
    n.getSint32SList().forEach(x -> b.addSint32S(-x));
    n.getUint64BySint64Map().forEach((k, v) -> b.putUint64BySint64(k, -v));
    return b.build();
  }

  @Override
  public Numbers negate(Numbers n) {
    return negated(n);
  }
}
