package io.boltgen.testing;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.util.ArrayList;
import java.util.List;

/**
 * What a test opened (servers, clients, sockets, executors), closed in reverse order when the test ends:
 * {@code T server = closer.track(open())} in the test, {@code closer.close()} in its {@code @AfterEach}. Every
 * resource is closed even when one of them fails to close; the first failure is thrown, with the others
 * suppressed.
 */
@SuppressWarnings("try") // it closes AutoCloseables, whose close() may throw anything, InterruptedException too
public final class Closer implements AutoCloseable {

  @GuardedBy("this")
  private final List<AutoCloseable> resources = new ArrayList<>();

  /** Closes {@code resource} when this closes (after everything tracked later); returns it. */
  public synchronized <T extends AutoCloseable> T track(T resource) {
    resources.add(resource);
    return resource;
  }

  @Override
  public synchronized void close() throws Exception {
    Exception first = null;
    for (int i = resources.size() - 1; i >= 0; i--) {
      try {
        resources.get(i).close();
      } catch (Exception e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }
    resources.clear();
    if (first != null) {
      throw first;
    }
  }
}
