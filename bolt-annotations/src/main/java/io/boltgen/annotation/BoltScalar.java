package io.boltgen.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The protobuf scalar type an {@code int} or {@code long} travels as, when it is not the one its Java type
 * implies ({@code int32} for {@code int} and {@code Integer}, {@code int64} for {@code long} and {@code Long}).
 *
 * <p>Declare it wherever a peer's {@code .proto} says {@code sint32}, {@code fixed64}, {@code uint32} and so on:
 * those types put different bytes on the wire than {@code int32}/{@code int64}, so a plain {@code int} for a
 * peer's {@code sint32} would read {@code -42} as {@code 42}. The emitted {@code .proto} spells the type as
 * declared here, and the JSON form follows it (an unsigned type is written and read unsigned).
 *
 * <pre>{@code
 * record Page(
 *     @BoltScalar(SINT32) int offset,            // sint32 offset = 1;
 *     @BoltScalar(FIXED64) long checksum,        // fixed64 checksum = 2;
 *     @BoltScalar(UINT32) List<Integer> sizes,   // repeated uint32 sizes = 3;
 *     @BoltScalar(key = SINT64, value = UINT64) Map<Long, Long> totals) {} // map<sint64, uint64> totals = 4;
 * }</pre>
 *
 * <p>On a record component or a method parameter whose type is {@code int}, {@code long}, their boxes, or an
 * {@code Optional}, {@code List} or {@code Set} of a box, {@link #value()} is the type of that value; on a
 * {@code Map}, {@link #value()} is the type of its values and {@link #key()} of its keys. A 32-bit type needs an
 * {@code int} or {@code Integer}, a 64-bit type a {@code long} or {@code Long}; anything else is a compile error
 * naming the element. The unsigned types hold their values in the same bits as protobuf-java does: a
 * {@code uint32} above {@link Integer#MAX_VALUE} is a negative {@code int} ({@link Integer#toUnsignedLong}
 * gives it back).
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.RECORD_COMPONENT, ElementType.PARAMETER})
public @interface BoltScalar {

  /** The type of the value (of a map's values, on a map); {@link Type#DEFAULT} leaves it as the Java type implies. */
  Type value() default Type.DEFAULT;

  /** On a map, the type of its keys; {@link Type#DEFAULT} leaves it as the Java type implies. */
  Type key() default Type.DEFAULT;

  /** The protobuf scalar types an {@code int} or a {@code long} may travel as. */
  enum Type {
    /** What the Java type implies: {@code int32} for an {@code int}, {@code int64} for a {@code long}. */
    DEFAULT,
    /** A varint, negative values in ten bytes; an {@code int}. */
    INT32,
    /** A varint, negative values in ten bytes; a {@code long}. */
    INT64,
    /** A varint of the value's 32 bits read as unsigned; an {@code int}. */
    UINT32,
    /** A varint of the value's 64 bits read as unsigned; a {@code long}. */
    UINT64,
    /** A zigzag varint (small negative values stay small); an {@code int}. */
    SINT32,
    /** A zigzag varint (small negative values stay small); a {@code long}. */
    SINT64,
    /** Four bytes, little-endian, unsigned; an {@code int}. */
    FIXED32,
    /** Eight bytes, little-endian, unsigned; a {@code long}. */
    FIXED64,
    /** Four bytes, little-endian, signed; an {@code int}. */
    SFIXED32,
    /** Eight bytes, little-endian, signed; a {@code long}. */
    SFIXED64
  }
}
