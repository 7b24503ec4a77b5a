package io.boltgen.runtime;

import java.util.Map;
import java.util.concurrent.Executor;

/**
 * Chooses, per request, the executor a handler runs on (SOFABolt's ExecutorSelector). Called on the IO
 * thread with the request's method and decoded header, so it must be quick and never block.
 */
@FunctionalInterface
public interface ExecutorSelector {

  /** The executor for this request, or {@code null} for the service's (or server's) default. */
  Executor select(MethodDescriptor<?, ?> method, Map<String, String> headers);
}
