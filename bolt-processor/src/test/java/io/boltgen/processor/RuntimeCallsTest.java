package io.boltgen.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.Compiler;
import com.google.testing.compile.JavaFileObjects;
import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.TypeName;
import io.boltgen.processor.Model.Jdk;
import io.boltgen.runtime.codec.protobuf.ProtoTypes;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.tools.JavaFileObject;
import javax.tools.StandardLocation;
import org.junit.jupiter.api.Test;

/**
 * The runtime methods generated code calls exist in the runtime this build compiles: the processor names
 * them in the code it writes ({@link JdkKind.Call}), so nothing else would notice a runtime method renamed
 * or re-typed until a user's generated code stopped compiling. bolt-runtime is on this test's class path,
 * as it is on a user's.
 */
class RuntimeCallsTest {

  @Test
  void everyProtoTypesCallOfGeneratedCodeIsAPublicStaticMethodOfTheRuntimeWithThoseTypes() throws Exception {
    List<String> wrong = new ArrayList<>();
    for (JdkKind.Call call : JdkKind.calls()) {
      Class<?>[] parameters = new Class<?>[call.parameters().size()];
      for (int i = 0; i < parameters.length; i++) {
        parameters[i] = type(call.parameters().get(i));
      }
      Method m;
      try {
        m = ProtoTypes.class.getMethod(call.name(), parameters);
      } catch (NoSuchMethodException e) {
        wrong.add(call + ": ProtoTypes has no such method");
        continue;
      }
      if (!Modifier.isStatic(m.getModifiers()) || m.getReturnType() != type(call.returns())) {
        wrong.add(call + ": ProtoTypes declares " + m);
      }
    }
    assertThat(wrong).isEmpty();
    // one call per JDK type and shape: size, write and read for the four messages, parse for the text types
    assertThat(JdkKind.calls()).hasSize(2 + 4 * 3 + (Jdk.values().length - 4));
  }

  /** Every JDK value type in every place a type can take: its code compiles against the runtime, warning-free. */
  @Test
  void codeGeneratedForEveryJdkTypeInEveryShapeCompilesAgainstTheRuntime() throws IOException {
    List<String> components = new ArrayList<>();
    List<String> methods = new ArrayList<>();
    for (Jdk jdk : Jdk.values()) {
      String t = jdk.className.canonicalName();
      String n = jdk.name().toLowerCase(java.util.Locale.ROOT).replace("_", "");
      components.addAll(List.of(t + " " + n, "java.util.Optional<" + t + "> maybe" + n,
          "java.util.List<" + t + "> list" + n, "java.util.Set<" + t + "> set" + n,
          "java.util.Map<String, " + t + "> valued" + n));
      if (!jdk.message()) {
        components.add("java.util.Map<" + t + ", Integer> keyed" + n);
      }
      // as a parameter and as a result of each call style
      methods.addAll(List.of(t + " " + n + "(" + t + " value);",
          "java.util.concurrent.CompletableFuture<java.util.List<" + t + ">> " + n + "s(java.util.Optional<" + t
              + "> value);"));
    }
    JavaFileObject source = JavaFileObjects.forSourceString("test.AllJdk", String.join("\n",
        "package test;",
        "import io.boltgen.annotation.BoltService;",
        "@BoltService(name = \"test.AllJdk\")",
        "public interface AllJdk {",
        "  record Everything(" + String.join(", ", components) + ") {}",
        "  Everything echo(Everything value);",
        "  " + String.join("\n  ", methods),
        "}"));
    Compilation c = Compiler.javac().withProcessors(new BoltProcessor()).withOptions("-Xlint:all", "-Werror")
        .compile(source);
    assertThat(c).succeededWithoutWarnings();
    String codecs = c.generatedFile(StandardLocation.SOURCE_OUTPUT, "test/AllJdkBoltCodecs.java").orElseThrow()
        .getCharContent(true).toString();
    for (JdkKind.Call call : JdkKind.calls()) {
      assertThat(codecs).as("the codecs call %s", call.name())
          .containsAnyOf("ProtoTypes." + call.name() + "(", "ProtoTypes::" + call.name() + ")");
    }
    // the shapes: a message read by method reference, text parsed from a map entry without a value
    assertThat(codecs).contains("d.readMessage(ProtoTypes::readTimestamp)")
        .contains("ProtoTypes.parseUuid(\"\")");
  }

  private static Class<?> type(TypeName t) throws ClassNotFoundException {
    if (t.isPrimitive() || t.equals(TypeName.VOID)) {
      return Arrays.stream(new Class<?>[] {int.class, long.class, boolean.class, void.class})
          .filter(c -> c.getName().equals(t.toString())).findFirst().orElseThrow();
    }
    return Class.forName(((ClassName) t).reflectionName());
  }
}
