package io.boltgen.processor;

import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import javax.annotation.processing.Filer;
import javax.lang.model.element.Element;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.ForwardingJavaFileObject;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.JavaFileObject.Kind;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.StandardLocation;
import javax.tools.ToolProvider;

/**
 * Compiles a source file of the compilation being processed on its own, into memory, with the JDK's javac:
 * the processor needs the class files of protoc's Java output compiled with the service, and javac writes
 * the compilation's class files only after processing. The nested compilation sees what the outer one sees:
 * a package lists the types the outer compilation knows in it (its {@link Elements}), taken from their
 * sources when they are compiled in this compilation (found through javac's tree API) and otherwise from the
 * class-path roots (jars, directories) the {@link Filer} finds their class files in.
 */
final class SourceCompiler {

  /** Why a file could not be compiled, in javac's words. */
  static final class Failure extends Exception {
    private static final long serialVersionUID = 1L;

    Failure(String message) {
      super(message);
    }
  }

  private final Elements elements;
  private final Filer filer;
  private final Trees trees;
  /** The qualified names of the top-level types compiled from source in this compilation, so far. */
  private final Set<String> sourceTypes;
  /** The class-path roots of each package listed so far: the class path does not change in a compilation. */
  private final Map<String, Set<Path>> packageRoots = new HashMap<>();

  SourceCompiler(Elements elements, Filer filer, Trees trees, Set<String> sourceTypes) {
    this.elements = elements;
    this.filer = filer;
    this.trees = trees;
    this.sourceTypes = sourceTypes;
  }

  /** Whether the top-level type {@code type} is compiled from source in this compilation. */
  boolean fromSource(TypeElement type) {
    return sourceTypes.contains(type.getQualifiedName().toString());
  }

  /** The source file of {@code type}, a top-level type compiled in this compilation, or {@code null}. */
  JavaFileObject sourceOf(TypeElement type) {
    TreePath path = trees == null || !fromSource(type) ? null : trees.getPath(type);
    return path == null ? null : path.getCompilationUnit().getSourceFile();
  }

  /**
   * Compiles the source file of {@code topLevel}, a top-level type compiled in this compilation, and the
   * sources of this compilation it needs: class bytes by binary name.
   */
  Map<String, byte[]> compile(TypeElement topLevel) throws Failure {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    if (javac == null) {
      throw new Failure("this JVM has no Java compiler (javax.tools.ToolProvider found none)");
    }
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    try (Files files = new Files(javac.getStandardFileManager(null, Locale.ROOT, StandardCharsets.UTF_8))) {
      JavaFileObject root = files.source(sourceOf(topLevel), elements.getBinaryName(topLevel).toString());
      List<String> options = List.of("-proc:none", "-implicit:class", "-Xprefer:source", "-nowarn", "-g:none");
      boolean ok = javac.getTask(new StringWriter(), files, diagnostics, options, null, List.of(root)).call();
      if (!ok) {
        throw new Failure(diagnostics.getDiagnostics().stream().filter(d -> d.getKind() == Diagnostic.Kind.ERROR)
            .findFirst().map(d -> d.getMessage(Locale.ROOT)).orElse("javac failed"));
      }
      return files.classes;
    } catch (IOException e) {
      throw new Failure(e.toString());
    }
  }

  /** The file manager of the nested compilation: the outer compilation's packages, classes kept in memory. */
  private final class Files extends ForwardingJavaFileManager<StandardJavaFileManager> {
    final Map<String, byte[]> classes = new LinkedHashMap<>();
    /** Binary names of the source files handed out (javac asks, and only we know them). */
    private final IdentityHashMap<JavaFileObject, String> sourceNames = new IdentityHashMap<>();
    private final Map<JavaFileObject, JavaFileObject> sources = new HashMap<>();
    private final Map<Path, StandardJavaFileManager> roots = new HashMap<>();
    private final JavaCompiler javac = ToolProvider.getSystemJavaCompiler();

    Files(StandardJavaFileManager platform) {
      super(platform);
    }

    JavaFileObject source(JavaFileObject file, String binaryName) {
      return sources.computeIfAbsent(file, f -> {
        JavaFileObject wrapped = new ForwardingJavaFileObject<>(f) {};
        sourceNames.put(wrapped, binaryName);
        return wrapped;
      });
    }

    @Override
    public boolean hasLocation(Location location) {
      return location == StandardLocation.SOURCE_PATH || location == StandardLocation.CLASS_PATH
          || super.hasLocation(location);
    }

    @Override
    public Iterable<JavaFileObject> list(Location location, String pkg, Set<Kind> kinds, boolean recurse)
        throws IOException {
      if (location != StandardLocation.SOURCE_PATH && location != StandardLocation.CLASS_PATH) {
        return super.list(location, pkg, kinds, recurse);
      }
      PackageElement p = elements.getPackageElement(pkg);
      List<JavaFileObject> found = new ArrayList<>();
      if (p == null || !elements.getModuleOf(p).isUnnamed()) {
        return found; // unknown, or the platform's: javac finds those in its system modules
      }
      if (location == StandardLocation.SOURCE_PATH) {
        for (Element e : kinds.contains(Kind.SOURCE) ? p.getEnclosedElements() : List.<Element>of()) {
          JavaFileObject source = e instanceof TypeElement type ? sourceOf(type) : null;
          if (source != null && source.isNameCompatible(e.getSimpleName().toString(), Kind.SOURCE)) {
            found.add(source(source, pkg.isEmpty() ? e.getSimpleName().toString() : pkg + "." + e.getSimpleName()));
          }
        }
        return found;
      }
      if (kinds.contains(Kind.CLASS)) {
        for (Path root : classRoots(p)) {
          rootFiles(root).list(StandardLocation.CLASS_PATH, pkg, Set.of(Kind.CLASS), false).forEach(found::add);
        }
      }
      return found;
    }

    /**
     * The class-path roots holding the class files of package {@code p}'s types that are not compiled from
     * source here: one Filer look-up finds a root, whose listing then accounts for the other types in it.
     */
    private Set<Path> classRoots(PackageElement p) throws IOException {
      String pkg = p.getQualifiedName().toString();
      Set<Path> found = packageRoots.get(pkg);
      if (found != null) {
        return found;
      }
      found = new LinkedHashSet<>();
      Set<String> listed = new HashSet<>();
      for (Element e : p.getEnclosedElements()) {
        String file = e.getSimpleName() + ".class";
        if (!(e instanceof TypeElement type) || fromSource(type) || listed.contains(file)) {
          continue;
        }
        Path root = root(pkg, file);
        if (root != null && found.add(root)) {
          StandardJavaFileManager files = rootFiles(root);
          for (JavaFileObject f : files.list(StandardLocation.CLASS_PATH, pkg, Set.of(Kind.CLASS), false)) {
            String binary = files.inferBinaryName(StandardLocation.CLASS_PATH, f);
            listed.add(binary.substring(binary.lastIndexOf('.') + 1) + ".class");
          }
        }
      }
      packageRoots.put(pkg, found);
      return found;
    }

    @Override
    public String inferBinaryName(Location location, JavaFileObject file) {
      String name = sourceNames.get(file);
      return name != null ? name : super.inferBinaryName(location, file);
    }

    @Override
    public boolean isSameFile(FileObject a, FileObject b) {
      return a == b || (!sourceNames.containsKey(a) && !sourceNames.containsKey(b) && super.isSameFile(a, b));
    }

    @Override
    public JavaFileObject getJavaFileForOutput(Location location, String className, Kind kind, FileObject sibling) {
      return new SimpleJavaFileObject(URI.create("mem:///" + className.replace('.', '/') + kind.extension), kind) {
        @Override
        public OutputStream openOutputStream() {
          return new ByteArrayOutputStream() {
            @Override
            public void close() {
              classes.put(className, toByteArray());
            }
          };
        }
      };
    }

    /** The jar or directory the class file {@code pkg/file} of the outer class path is in, or {@code null}. */
    private Path root(String pkg, String file) {
      try {
        URI uri = filer.getResource(StandardLocation.CLASS_PATH, pkg, file).toUri();
        String s = uri.toString();
        if (s.startsWith("jar:file:") && s.contains("!/")) {
          return Path.of(URI.create(s.substring(4, s.indexOf("!/"))));
        }
        String relative = (pkg.isEmpty() ? "" : pkg.replace('.', '/') + "/") + file;
        if ("file".equals(uri.getScheme()) && s.endsWith(relative)) {
          return Path.of(URI.create(s.substring(0, s.length() - relative.length())));
        }
      } catch (IOException | IllegalArgumentException e) {
        // not on the class path (a platform class), or not in a file: nothing to list
      }
      return null;
    }

    private StandardJavaFileManager rootFiles(Path root) throws IOException {
      StandardJavaFileManager files = roots.get(root);
      if (files == null) {
        files = javac.getStandardFileManager(null, Locale.ROOT, StandardCharsets.UTF_8);
        files.setLocationFromPaths(StandardLocation.CLASS_PATH, List.of(root));
        roots.put(root, files);
      }
      return files;
    }

    @Override
    public void close() throws IOException {
      for (StandardJavaFileManager files : roots.values()) {
        files.close();
      }
      super.close();
    }
  }
}
