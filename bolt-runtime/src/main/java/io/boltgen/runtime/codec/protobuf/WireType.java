package io.boltgen.runtime.codec.protobuf;

/** The protobuf wire types and tag arithmetic. Generated code uses precomputed tags; these are for helpers. */
public final class WireType {

  /** int32, int64, uint32, uint64, sint32, sint64, bool, enum. */
  public static final int VARINT = 0;
  /** fixed64, sfixed64, double. */
  public static final int FIXED64 = 1;
  /** string, bytes, embedded messages, packed repeated fields. */
  public static final int LENGTH_DELIMITED = 2;
  /** Start of a (deprecated) group. */
  public static final int START_GROUP = 3;
  /** End of a (deprecated) group. */
  public static final int END_GROUP = 4;
  /** fixed32, sfixed32, float. */
  public static final int FIXED32 = 5;

  /** The largest field number protobuf allows. */
  public static final int MAX_FIELD_NUMBER = (1 << 29) - 1;

  private WireType() {}

  /** The tag of field {@code fieldNumber} with wire type {@code wireType}. */
  public static int tag(int fieldNumber, int wireType) {
    return (fieldNumber << 3) | wireType;
  }

  /** The field number of {@code tag}. */
  public static int fieldNumber(int tag) {
    return tag >>> 3;
  }

  /** The wire type of {@code tag}. */
  public static int wireType(int tag) {
    return tag & 7;
  }
}
