package io.boltgen.runtime;


/**
 * Turns the {@link BoltException} of a failed call into what the caller should see, for example a
 * declared exception of the method rebuilt from {@link BoltException#remoteClassName()} and
 * {@link BoltException#remoteMessage()}. Generated per method that declares exceptions.
 */
@FunctionalInterface
public interface ErrorMapper {

  /** Leaves every failure a {@code BoltException}. */
  ErrorMapper IDENTITY = e -> e;

  /** The exception to report instead of {@code e}; {@code e} itself when nothing maps. Never null. */
  Throwable map(BoltException e);
}
