package com.example.sofa.proto;

/**
 * The protobuf service of the interop contract, served and consumed by SOFARPC with serialization "protobuf"
 * (interface name, version "1.0", uniqueId "" are what a boltgen peer must match).
 */
public interface EchoService {

  /** text = r.text repeated max(r.times, 1) times; length = that text's length; server = the provider's id. */
  EchoReply echo(EchoRequest r);

  /** Always throws {@code new EchoRefusedException("refused: " + r.getText())}. */
  EchoReply refuse(EchoRequest r) throws EchoRefusedException;

  /** Sleeps r.times milliseconds, then answers like {@link #echo}. */
  EchoReply slow(EchoRequest r);

  /**
   * Records one ping for r.text (called oneway). It returns an EchoReply (empty), not void: SOFARPC's protobuf
   * serializer refuses a method whose return type is not a protobuf message, void included, even for oneway calls.
   */
  EchoReply ping(EchoRequest r);

  /** length = the number of pings recorded so far for r.text; server = the provider's id. */
  EchoReply pings(EchoRequest r);

  /**
   * Every integer type of protobuf: answers {@code n} with each number negated (Java's {@code -x}, in the bits the
   * field holds: 0 stays 0, the minimum stays itself), each element of the list too, and each map value (the keys
   * kept). Refuses a request that carries unknown fields (an all-default one must parse to the default message).
   */
  Numbers negate(Numbers n);
}
