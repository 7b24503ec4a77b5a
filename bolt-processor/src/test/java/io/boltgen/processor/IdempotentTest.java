package io.boltgen.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static io.boltgen.processor.ValidationTest.source;
import static io.boltgen.processor.ValidationTest.svc;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.Compiler;
import java.io.IOException;
import javax.tools.JavaFileObject;
import javax.tools.StandardLocation;
import org.junit.jupiter.api.Test;

/**
 * {@code @Idempotent}: what it adds to a method's descriptor, and where it has no effect. Its one error (on
 * an {@code @Oneway} method) is in {@link ValidationTest}; {@code StubSkeletonTest} checks the loaded
 * descriptor of the fixtures' idempotent method.
 */
class IdempotentTest {

  private static Compilation strict(JavaFileObject... sources) {
    return Compiler.javac().withProcessors(new BoltProcessor()).withOptions("-Xlint:all", "-Werror").compile(sources);
  }

  private static String holder(Compilation c) throws IOException {
    return c.generatedSourceFile("test.SvcBolt").orElseThrow().getCharContent(true).toString();
  }

  /** The initializer of the descriptor {@code constant}: from its name to its {@code .build()}. */
  private static String descriptor(String holder, String constant) {
    int start = holder.indexOf(" " + constant + " = ");
    assertThat(start).as(constant).isPositive();
    return holder.substring(start, holder.indexOf(".build();", start));
  }

  @Test
  void everyRequestResponseStyleCanBeIdempotentAndOnlyItsDescriptorSaysSo() throws IOException {
    JavaFileObject svc = svc("@BoltService", "public interface Svc {",
        "  @Idempotent String get(String id);",
        "  @Idempotent CompletableFuture<String> later(String id);",
        "  @Idempotent void watch(String id, BoltCallback<String> callback);",
        "  @Idempotent @BoltMethod(timeoutMillis = 100) int count(String id) throws Missing;",
        "  String put(String id);",
        "  @Oneway void fire(String note);",
        "  class Missing extends Exception {", "    private static final long serialVersionUID = 1L;",
        "    public Missing(String message) {", "      super(message);", "    }", "  }",
        "}");
    Compilation c = strict(svc);
    assertThat(c).succeededWithoutWarnings();
    String holder = holder(c);
    for (String constant : new String[] {"METHOD_GET", "METHOD_LATER", "METHOD_WATCH", "METHOD_COUNT"}) {
      assertThat(descriptor(holder, constant)).as(constant)
          .contains(".type(MethodType.REQUEST_RESPONSE)\n")
          .containsOnlyOnce(".idempotent(true)\n");
    }
    // after the timeout, before the error mapper
    assertThat(descriptor(holder, "METHOD_COUNT"))
        .contains(".timeoutMillis(100L)\n      .idempotent(true)\n      .errorMapper(SvcBolt::mapCountError)\n");
    // the others are as they were: no .idempotent(false)
    assertThat(descriptor(holder, "METHOD_PUT")).doesNotContain("idempotent");
    assertThat(descriptor(holder, "METHOD_FIRE")).doesNotContain("idempotent");
    // and their javadoc
    assertThat(holder).contains("{@link Svc#get}: className {@code test.Svc:1.0/get}, sync, idempotent.\n")
        .contains(", future, idempotent.\n").contains(", callback, idempotent.\n")
        .contains("/put}, sync.\n").contains("/fire}, oneway.\n")
        .doesNotContain("idempotent(false)");
    // nothing of it reaches the .proto: it is the client's retry policy, not the wire
    assertThat(c.generatedFile(StandardLocation.CLASS_OUTPUT, "META-INF/boltgen/test.Svc.proto")
        .orElseThrow().getCharContent(true).toString()).doesNotContainIgnoringCase("idempotent");
  }

  @Test
  void anInheritedMethodKeepsItsIdempotentAndAnOverrideDecides() throws IOException {
    JavaFileObject base = source("test.Base", "public interface Base {", "  @Idempotent String get(String id);",
        "  @Idempotent String put(String id);", "}");
    JavaFileObject svc = svc("@BoltService", "public interface Svc extends Base {",
        "  @Override String put(String id);", "}");
    Compilation c = strict(svc, base);
    assertThat(c).succeededWithoutWarnings();
    String holder = holder(c);
    assertThat(descriptor(holder, "METHOD_GET")).contains(".idempotent(true)");
    assertThat(descriptor(holder, "METHOD_PUT")).doesNotContain("idempotent");
  }

  /**
   * Like {@code @Oneway} and {@code @BoltMethod}, it is read on RPC methods only (the abstract methods of a
   * service, declared or inherited): elsewhere it has no effect and no diagnostic, not even a lint warning (the
   * processor claims it).
   */
  @Test
  void elsewhereItIsIgnoredLikeOnewayAndBoltMethod() throws IOException {
    JavaFileObject svc = svc("@BoltService", "public interface Svc {", "  String get(String id);",
        "  @Idempotent default String cached(String id) {", "    return get(id);", "  }",
        "  @Oneway @BoltMethod(timeoutMillis = -1) default void fire() {}",
        "  @Idempotent static String key(String id) {", "    return id;", "  }", "}");
    JavaFileObject plain = source("test.Plain", "public interface Plain {", "  @Oneway @Idempotent String get();", "}");
    Compilation c = strict(svc, plain);
    assertThat(c).succeededWithoutWarnings();
    String holder = holder(c);
    assertThat(holder).doesNotContain("idempotent").contains("METHOD_GET =").doesNotContain("METHOD_CACHED")
        .doesNotContain("METHOD_FIRE").doesNotContain("METHOD_KEY");
    assertThat(c.generatedSourceFile("test.PlainBolt")).isEmpty();
  }
}
