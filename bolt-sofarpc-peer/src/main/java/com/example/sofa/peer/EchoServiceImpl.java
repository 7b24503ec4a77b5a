package com.example.sofa.peer;

import com.example.sofa.proto.EchoRefusedException;
import com.example.sofa.proto.EchoReply;
import com.example.sofa.proto.EchoRequest;
import com.example.sofa.proto.EchoService;
import com.example.sofa.proto.Numbers;

/** The provider's EchoService: the contract in {@link EchoService}'s comments. */
final class EchoServiceImpl implements EchoService {
  private final String id;
  private final Pings pings = new Pings();

  EchoServiceImpl(String id) {
    this.id = id;
  }

  /** What echo answers to {@code r} on provider {@code id}; the consumer's checks expect the same. */
  static EchoReply expected(EchoRequest r, String id) {
    String text = r.getText().repeat(Math.max(r.getTimes(), 1));
    return EchoReply.newBuilder().setText(text).setLength(text.length()).setServer(id).build();
  }

  /** What negate answers to {@code n}; the consumer's checks expect the same. */
  static Numbers negated(Numbers n) {
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
    // what a peer sent for an all-default message must parse to exactly that message: no unknown field
    if (!n.getUnknownFields().asMap().isEmpty()) {
      throw new IllegalArgumentException("unknown fields in the request: " + n.getUnknownFields().asMap().keySet());
    }
    return negated(n);
  }

  @Override
  public EchoReply echo(EchoRequest r) {
    return expected(r, id);
  }

  @Override
  public EchoReply refuse(EchoRequest r) throws EchoRefusedException {
    throw new EchoRefusedException("refused: " + r.getText());
  }

  @Override
  public EchoReply slow(EchoRequest r) {
    Sleep.millis(r.getTimes());
    return expected(r, id);
  }

  @Override
  public EchoReply ping(EchoRequest r) {
    pings.record(r.getText());
    return EchoReply.getDefaultInstance();
  }

  @Override
  public EchoReply pings(EchoRequest r) {
    return EchoReply.newBuilder().setLength(pings.count(r.getText())).setServer(id).build();
  }
}
