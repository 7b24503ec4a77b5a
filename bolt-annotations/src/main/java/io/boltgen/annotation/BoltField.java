package io.boltgen.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Pins the protobuf field number of a record component.
 *
 * <p>Numbering is all-or-nothing per record. Without this annotation a record's components are numbered
 * 1, 2, 3… in declaration order, which stays compatible as long as components are only ever appended.
 * Pin numbers as soon as a message must survive reordering or removal of components. Numbers are
 * 1..536870911, outside protobuf's reserved 19000..19999, unique within the record and not listed in
 * {@link BoltMessage#reserved()}.
 *
 * <p>On a record that a {@code sealed} interface permits, it pins the record's field number in the
 * interface's {@code oneof} instead (without it the cases are numbered 1, 2, 3… in the order of the
 * {@code permits} clause, or of declaration when the clause is implicit); all-or-nothing per interface.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.RECORD_COMPONENT, ElementType.TYPE})
public @interface BoltField {

  /** The field number. */
  int value();
}
