package io.boltgen.processor;

import com.sun.source.util.Trees;
import java.lang.reflect.InvocationTargetException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.ElementFilter;

/**
 * The proto identity (full name and {@code .proto} file) of a protoc-generated message class, so that the
 * {@code .proto} can type its fields and import its file, read through protobuf-java's own API: the class's
 * static {@code getDescriptor()} returns its {@code Descriptors.Descriptor}, whose {@code getFullName()} and
 * {@code getFile().getName()} are what protoc compiled.
 *
 * <p>That API needs the class loaded and initialized: protobuf-java builds the descriptor in the static
 * initializers protoc generates (the message class's, its file's outer class's, and those of the outer
 * classes of the files it imports). Those run, inside the compiler, and are bounded:
 * <ul>
 *   <li>only for a class shaped as protoc generates it: a public static {@code getDescriptor()} returning
 *       {@code com.google.protobuf.Descriptors.Descriptor}, checked on the element before anything loads;</li>
 *   <li>in a {@link CompilationClassLoader} of their own, which sees the compilation's class path (and
 *       nothing of the processor or javac) and lives as long as this compilation's processor;</li>
 *   <li>on a daemon thread, for at most {@value #TIME_LIMIT_SECONDS} seconds.</li>
 * </ul>
 * A class compiled in this compilation (protoc's Java output beside the service) has no class file yet:
 * its source file is compiled first, on its own and in memory ({@link SourceCompiler}). What cannot be read
 * is a {@link Result#problem() problem} saying what failed and what to do, reported as an error on the
 * element that uses the message.
 */
final class ProtoDescriptors {

  /** How long the static initializers of one message class may take. */
  static final int TIME_LIMIT_SECONDS = 20;

  /**
   * A message's full proto name (no leading dot), the name of its {@code .proto} file, and the tag of its first
   * field without presence (see {@link Model.ProtoMessageType}), 0 if none.
   */
  record Identity(String fullName, String file, int defaultTag) {}

  /** The identity of a message class, or why it could not be read (then {@code identity} is null). */
  record Result(Identity identity, String problem) {}

  private static final String DESCRIPTOR = "com.google.protobuf.Descriptors.Descriptor";

  /**
   * One {@code .proto} file as protobuf-java compiled it: its {@code FileDescriptorProto} in binary form, and the
   * names of the files it imports.
   */
  static final class File {
    private final byte[] descriptor;
    private final List<String> dependencies;

    File(byte[] descriptor, List<String> dependencies) {
      this.descriptor = descriptor.clone();
      this.dependencies = List.copyOf(dependencies);
    }

    byte[] descriptor() {
      return descriptor.clone();
    }

    List<String> dependencies() {
      return dependencies;
    }
  }

  /** What describing a class found: its identity, and the files of its descriptor and of those it imports. */
  private record Described(Identity identity, Map<String, File> files) {}

  private final ProcessingEnvironment env;
  private final SourceCompiler compiler;
  private final Map<String, Result> known = new HashMap<>();
  /** The files of the messages described so far, and of those they import, by name. */
  private final Map<String, File> files = new HashMap<>();
  /** Class loaders by top-level class compiled here; {@code null} key: the class path alone. */
  private final Map<String, CompilationClassLoader> loaders = new HashMap<>();

  /** {@code sourceTypes}: the top-level types compiled from source in this compilation, filled as rounds go. */
  ProtoDescriptors(ProcessingEnvironment env, Set<String> sourceTypes) {
    this.env = env;
    Trees trees = SourceFiles.trees(env);
    this.compiler = new SourceCompiler(env.getElementUtils(), env.getFiler(), trees, sourceTypes);
  }

  /** The identity of the generated message class {@code message}, or the problem that kept it unknown. */
  Result of(TypeElement message) {
    return known.computeIfAbsent(message.getQualifiedName().toString(), k -> read(message));
  }

  private Result read(TypeElement message) {
    String name = message.getQualifiedName().toString();
    boolean generated = ElementFilter.methodsIn(message.getEnclosedElements()).stream().anyMatch(m ->
        m.getSimpleName().contentEquals("getDescriptor") && m.getParameters().isEmpty()
            && m.getModifiers().containsAll(Set.of(Modifier.PUBLIC, Modifier.STATIC))
            && m.getReturnType().toString().equals(DESCRIPTOR));
    if (!generated) {
      return problem(name + " is not a message class protoc generated: it has no public static getDescriptor()"
          + " returning " + DESCRIPTOR + ", so its proto name and file cannot be read; use protoc's Java output"
          + " (java_out) for it, or a record");
    }
    TypeElement top = message;
    while (!(top.getEnclosingElement() instanceof PackageElement)) {
      top = (TypeElement) top.getEnclosingElement();
    }
    String topName = env.getElementUtils().getBinaryName(top).toString();
    boolean onClassPath = !compiler.fromSource(top);
    if (!onClassPath && compiler.sourceOf(top) == null) {
      return problem(name + " is compiled in this compilation, and this compiler gives annotation processors no"
          + " access to its source (javac's tree API), so it cannot be compiled on its own to read its proto"
          + " descriptor; compile protoc's Java output before the service (in a module of its own, on the"
          + " service module's class path)");
    }
    CompilationClassLoader loader = loaders.get(onClassPath ? null : topName);
    if (loader == null) {
      try {
        loader = new CompilationClassLoader(env.getFiler(), onClassPath ? Map.of() : compiler.compile(top));
      } catch (SourceCompiler.Failure e) {
        return problem("compiling " + top.getQualifiedName() + " on its own, to read the proto descriptor of "
            + name + ", failed: " + e.getMessage() + "; compile protoc's Java output before the service (in a"
            + " module of its own, on the service module's class path)");
      }
      loaders.put(onClassPath ? null : topName, loader);
    }
    return describe(env.getElementUtils().getBinaryName(message).toString(), loader, name);
  }

  /**
   * The tag of the first field of {@code descriptor} (a {@code Descriptors.Descriptor}) that at its default value
   * parses to the default instance: a singular field without presence (written with its own wire type), or a
   * packable repeated one (length-delimited, empty); 0 if there is none.
   */
  private static int defaultTag(Object descriptor) throws ReflectiveOperationException {
    for (Object field : (List<?>) descriptor.getClass().getMethod("getFields").invoke(descriptor)) {
      Class<?> f = field.getClass();
      int number = (Integer) f.getMethod("getNumber").invoke(field);
      if ((Boolean) f.getMethod("isRepeated").invoke(field)) {
        if ((Boolean) f.getMethod("isPackable").invoke(field)) {
          return number << 3 | WireKind.LENGTH_DELIMITED;
        }
      } else if (!(Boolean) f.getMethod("hasPresence").invoke(field)) {
        Object liteType = f.getMethod("getLiteType").invoke(field);
        // an enum constant may be a subclass of its own (a body): ask the enum's class for the method
        return number << 3 | (Integer) ((Enum<?>) liteType).getDeclaringClass().getMethod("getWireType")
            .invoke(liteType);
      }
    }
    return 0;
  }

  /**
   * The descriptors of the {@code .proto} files read so far (those of the messages described, and the files they
   * import), by file name; with a well-known type's file ({@code google/protobuf/...}) read now when
   * {@code wellKnown} names one whose class is on the class path.
   */
  Map<String, File> files(String wellKnown) {
    String javaClass = WellKnownTypes.javaClass(wellKnown);
    if (javaClass != null && !files.containsKey(wellKnown)) {
      CompilationClassLoader loader = loaders.get(null);
      if (loader == null) {
        loader = new CompilationClassLoader(env.getFiler(), Map.of());
        loaders.put(null, loader);
      }
      describe(javaClass, loader, javaClass); // not on the class path: the file stays unknown
    }
    return files;
  }

  /**
   * The file of {@code fileDescriptor} (a {@code Descriptors.FileDescriptor}) and those it imports, into
   * {@code out}.
   */
  private static void collect(Object fileDescriptor, Map<String, File> out) throws ReflectiveOperationException {
    Class<?> type = fileDescriptor.getClass();
    String name = (String) type.getMethod("getName").invoke(fileDescriptor);
    if (out.containsKey(name)) {
      return;
    }
    List<String> dependencies = new java.util.ArrayList<>();
    for (Object dependency : (List<?>) type.getMethod("getDependencies").invoke(fileDescriptor)) {
      collect(dependency, out);
      dependencies.add((String) dependency.getClass().getMethod("getName").invoke(dependency));
    }
    Object proto = type.getMethod("toProto").invoke(fileDescriptor);
    out.put(name, new File((byte[]) proto.getClass().getMethod("toByteArray").invoke(proto), dependencies));
  }

  /** Asks protobuf-java, on a thread of its own and within the time limit, for the descriptor of the class. */
  private Result describe(String binaryName, CompilationClassLoader loader, String name) {
    FutureTask<Described> task = new FutureTask<>(() -> {
      Class<?> type = Class.forName(binaryName, true, loader);
      Object descriptor = type.getMethod("getDescriptor").invoke(null);
      Object file = descriptor.getClass().getMethod("getFile").invoke(descriptor);
      Map<String, File> read = new HashMap<>();
      collect(file, read);
      return new Described(new Identity((String) descriptor.getClass().getMethod("getFullName").invoke(descriptor),
          (String) file.getClass().getMethod("getName").invoke(file), defaultTag(descriptor)), read);
    });
    Thread thread = new Thread(task, "boltgen-protobuf-descriptor");
    thread.setDaemon(true);
    thread.setContextClassLoader(loader);
    thread.start();
    String failed = "reading the proto descriptor of " + name + " with protobuf-java (" + name + ".getDescriptor())";
    try {
      Described described = task.get(TIME_LIMIT_SECONDS, TimeUnit.SECONDS);
      described.files().forEach(files::putIfAbsent);
      return new Result(described.identity(), null);
    } catch (TimeoutException e) {
      loader.close();
      loaders.values().remove(loader);
      return problem(failed + " did not finish within " + TIME_LIMIT_SECONDS + " s: the static initializers of"
          + " its classes did not return");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return problem(failed + " was interrupted");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      while ((cause instanceof InvocationTargetException || cause instanceof ExceptionInInitializerError)
          && cause.getCause() != null) {
        cause = cause.getCause();
      }
      return problem(failed + " failed: " + cause + "; the class path of this compilation needs the"
          + " protobuf-java version protoc's output was generated for, and the classes of the files it imports");
    }
  }

  private static Result problem(String problem) {
    return new Result(null, problem);
  }
}
