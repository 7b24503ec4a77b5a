package io.boltgen.processor;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import javax.annotation.processing.Filer;
import javax.tools.StandardLocation;

/**
 * Loads classes of the compilation's class path, read through the {@link Filer}, and classes compiled in
 * memory ({@link SourceCompiler}); its parent is the platform class loader, so the classes it loads see
 * neither the processor nor javac. Once {@link #close closed} it reads nothing more from the Filer: a
 * static initializer still running on another thread after its time is up cannot reach into javac.
 */
final class CompilationClassLoader extends ClassLoader {

  private final Filer filer;
  private final Map<String, byte[]> compiled;
  @GuardedBy("this")
  private boolean closed;

  CompilationClassLoader(Filer filer, Map<String, byte[]> compiled) {
    super("boltgen-protobuf-descriptors", ClassLoader.getPlatformClassLoader());
    this.filer = filer;
    this.compiled = Map.copyOf(compiled);
  }

  @Override
  protected Class<?> findClass(String name) throws ClassNotFoundException {
    byte[] bytes = compiled.get(name);
    if (bytes == null) {
      bytes = fromClassPath(name);
    }
    if (bytes == null) {
      throw new ClassNotFoundException(name);
    }
    return defineClass(name, bytes, 0, bytes.length);
  }

  private synchronized byte[] fromClassPath(String binaryName) {
    if (closed) {
      return null;
    }
    int dot = binaryName.lastIndexOf('.');
    String pkg = dot < 0 ? "" : binaryName.substring(0, dot);
    try (InputStream in = filer.getResource(StandardLocation.CLASS_PATH, pkg, binaryName.substring(dot + 1) + ".class")
        .openInputStream()) {
      return in.readAllBytes();
    } catch (IOException | IllegalArgumentException e) {
      return null;
    }
  }

  /** Stops reading through the Filer. */
  synchronized void close() {
    closed = true;
  }
}
