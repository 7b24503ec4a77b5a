package io.boltgen.processor;

import io.boltgen.processor.Model.Site;
import io.boltgen.processor.Model.Style;
import java.util.List;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;

/**
 * What a method that takes a stream of requests may look like: its one parameter a {@code Flow.Publisher<T>} of
 * them, and its result a {@code CompletableFuture<R>} (client streaming) or a {@code Flow.Publisher<R>}
 * (bidirectional). Anything else is reported where it is written.
 */
final class StreamSignatures {

  private StreamSignatures() {}

  /**
   * The type of the requests of {@code p}, a {@code Flow.Publisher<T>} parameter: {@code T}; null, reported, if it
   * is raw, a wildcard or {@code Void}, or not the method's only parameter ({@code count} of them, the callback aside).
   */
  static TypeMirror requests(Report report, VariableElement p, TypeMirror pt, int count) {
    List<? extends TypeMirror> args = ((DeclaredType) pt).getTypeArguments();
    if (count != 1) {
      report.error(p, "InvalidRequestStream", "a Flow.Publisher parameter is the method's stream of requests: it must"
          + " be its only parameter (put the values each request carries in a record)");
      return null;
    }
    if (args.isEmpty() || args.get(0).getKind() == TypeKind.WILDCARD || ModelReader.voidToNull(args.get(0)) == null) {
      report.error(p, "InvalidRequestStream", (args.isEmpty() ? "raw Flow.Publisher" : "Flow."
          + Annotations.render(pt)) + ": declare Flow.Publisher<T>, T the type of the stream's requests (not a"
          + " wildcard, not Void)");
      return null;
    }
    return args.get(0);
  }

  /**
   * The style of {@code method}, which takes a stream of requests and whose result gave it {@code style}: client
   * streaming for a {@code CompletableFuture}, bidirectional for a {@code Flow.Publisher}; null, reported, for any
   * other result or for {@code @Idempotent} ({@code idempotent}, null when absent).
   */
  static Style style(Report report, ExecutableElement method, Style style, AnnotationMirror idempotent) {
    if (style != Style.FUTURE && style != Style.STREAM) {
      report.error(method, "UnsupportedReturnType", method.getSimpleName() + "() takes a stream of requests"
          + " (Flow.Publisher<T>): it returns CompletableFuture<R> (client streaming: its one answer, once it read"
          + " the requests) or Flow.Publisher<R> (bidirectional streaming), not "
          + Annotations.render(method.getReturnType()));
      return null;
    }
    if (idempotent != null && style == Style.FUTURE) { // a Flow.Publisher result was reported already
      report.error(new Site(method, idempotent, null), "InvalidIdempotent", "a streaming method cannot be"
          + " @Idempotent: a client never sends a stream again, which its server may have read already; remove"
          + " @Idempotent");
      return null;
    }
    return style == Style.FUTURE ? Style.CLIENT_STREAM : Style.BIDI_STREAM;
  }
}
