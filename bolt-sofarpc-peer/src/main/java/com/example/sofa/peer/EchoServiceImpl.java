package com.example.sofa.peer;

import com.example.sofa.proto.EchoRefusedException;
import com.example.sofa.proto.EchoReply;
import com.example.sofa.proto.EchoRequest;
import com.example.sofa.proto.EchoService;

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
