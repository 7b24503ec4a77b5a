package io.boltgen.runtime.codec.protobuf;

/** The protobuf wire types a field's tag carries in its low three bits. */
final class WireType {

  static final int VARINT = 0;
  static final int FIXED64 = 1;
  static final int LENGTH_DELIMITED = 2;
  static final int START_GROUP = 3;
  static final int END_GROUP = 4;
  static final int FIXED32 = 5;

  private WireType() {}
}
