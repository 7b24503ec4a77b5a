package io.boltgen.processor;

import io.boltgen.processor.Model.MapType;
import io.boltgen.processor.Model.OptionalType;
import io.boltgen.processor.Model.RepeatedType;
import io.boltgen.processor.Model.Scalar;
import io.boltgen.processor.Model.ScalarType;
import io.boltgen.processor.Model.Site;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
import javax.lang.model.element.VariableElement;
import javax.lang.model.util.Elements;

/**
 * {@code @BoltScalar}: the protobuf scalar type an {@code int} or {@code long} component or parameter travels as
 * (uint, sint, fixed, sfixed), applied to the type {@link TypeReader} read for it: to the value itself, an
 * {@code Optional}'s value, a {@code List}'s or {@code Set}'s elements, a {@code Map}'s values and keys. A type
 * the annotation does not fit is an {@code InvalidScalar} error naming the element, and the read fails.
 */
final class ScalarDeclarations {

  private final Elements elements;
  private final Report report;
  // marks the type being read as failed (its reader then generates nothing for it)
  private final Runnable failed;

  ScalarDeclarations(Elements elements, Report report, Runnable failed) {
    this.elements = elements;
    this.report = report;
    this.failed = failed;
  }

  /**
   * {@code t}, the type read for {@code element} (a record component or a parameter), with the protobuf scalar
   * types its {@code @BoltScalar} names; {@code t} itself without the annotation, and {@code null} after an
   * error when the annotation does not fit the type. {@code at} is where errors go (a component's field).
   */
  Model.Type apply(Element element, Element at, Model.Type t, String context) {
    AnnotationMirror scalar = Annotations.annotation(element, Names.BOLT_SCALAR);
    if (scalar == null || t == null) {
      return t;
    }
    String value = ((VariableElement) Annotations.valueWithDefault(elements, scalar, "value").getValue())
        .getSimpleName().toString();
    String key = ((VariableElement) Annotations.valueWithDefault(elements, scalar, "key").getValue())
        .getSimpleName().toString();
    Site site = new Site(at, scalar, null);
    if (t instanceof MapType m) {
      Model.Type k = scalarAs(m.key(), key, site, context + "'s keys");
      Model.Type v = scalarAs(m.value(), value, site, context + "'s values");
      return k == null || v == null ? null : new MapType(k, v, m.javaType());
    }
    if (!key.equals("DEFAULT")) {
      return scalarError(site, context, "key = " + key + " names the type of a map's keys, and this is no map");
    }
    if (t instanceof RepeatedType r) {
      Model.Type each = scalarAs(r.element(), value, site, context + "'s elements");
      return each == null ? null : new RepeatedType(each, r.set(), r.javaType());
    }
    if (t instanceof OptionalType o) {
      Model.Type v = scalarAs(o.value(), value, site, context);
      return v == null ? null : new OptionalType(v, o.javaType());
    }
    return scalarAs(t, value, site, context);
  }

  /** {@code t} as the protobuf scalar type {@code name} (a {@code BoltScalar.Type} constant); null after an error. */
  private Model.Type scalarAs(Model.Type t, String name, Site site, String context) {
    if (name.equals("DEFAULT")) {
      return t;
    }
    boolean wide = name.endsWith("64");
    Scalar wanted = wide ? Scalar.LONG : Scalar.INT;
    if (!(t instanceof ScalarType s) || s.scalar() != wanted) {
      return scalarError(site, context, name + " is carried by " + (wide ? "a long or Long" : "an int or Integer")
          + ", not " + Annotations.render(t.javaType()));
    }
    Model.Encoding encoding;
    if (name.startsWith("UINT")) {
      encoding = Model.Encoding.UNSIGNED;
    } else if (name.startsWith("SINT")) {
      encoding = Model.Encoding.ZIGZAG;
    } else if (name.startsWith("FIXED")) {
      encoding = Model.Encoding.FIXED;
    } else if (name.startsWith("SFIXED")) {
      encoding = Model.Encoding.SIGNED_FIXED;
    } else {
      encoding = Model.Encoding.PLAIN; // INT32, INT64: what the Java type implies, said explicitly
    }
    return new ScalarType(s.scalar(), s.boxed(), encoding);
  }

  private Model.Type scalarError(Site site, String context, String problem) {
    report.error(site, "InvalidScalar", "@BoltScalar on " + context + ": " + problem);
    failed.run();
    return null;
  }
}
