package io.boltgen.runtime;

import java.util.Iterator;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/** Finds the {@link RuntimeProvider} once, with bolt-runtime's own class loader. */
final class Runtimes {

  /** The provider; loading the class fails with a clear message if the runtime's jar lacks it. */
  static final RuntimeProvider PROVIDER = load();

  private Runtimes() {}

  private static RuntimeProvider load() {
    Iterator<RuntimeProvider> found = ServiceLoader.load(RuntimeProvider.class, RuntimeProvider.class.getClassLoader())
        .iterator();
    if (!found.hasNext()) {
      throw new ServiceConfigurationError("no io.boltgen.runtime.RuntimeProvider: bolt-runtime's"
          + " META-INF/services/io.boltgen.runtime.RuntimeProvider is missing (a shaded jar must keep it)");
    }
    return found.next();
  }
}
