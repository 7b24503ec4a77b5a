package io.boltgen.runtime.server;

import io.boltgen.runtime.ExecutorSelector;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.protocol.BoltFrame;
import io.boltgen.runtime.protocol.HeaderCodec;
import io.boltgen.runtime.transport.BoltConnection;
import io.boltgen.runtime.transport.RequestHandler;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes each request frame to its method's executor, on the IO thread. The executor is the selector's
 * choice, else the service's, else the endpoint's default; a full executor is answered with
 * SERVER_THREADPOOL_BUSY at once, an unknown className with NO_PROCESSOR. Never runs a handler here unless
 * the executor is a direct one.
 */
public final class RequestDispatcher implements RequestHandler {

  private static final Logger log = LoggerFactory.getLogger(RequestDispatcher.class);

  private final ServiceRegistry registry;
  private final Executor defaultExecutor;
  private final ExecutorSelector selector;

  /** A dispatcher over {@code registry}; {@code selector} may be {@code null}. */
  public RequestDispatcher(ServiceRegistry registry, Executor defaultExecutor, ExecutorSelector selector) {
    this.registry = registry;
    this.defaultExecutor = defaultExecutor;
    this.selector = selector;
  }

  @Override
  public void onRequest(BoltConnection connection, BoltFrame frame) {
    MethodEntry entry = registry.lookup(frame.className());
    if (entry == null) {
      refuseUnknown(connection, frame);
      return;
    }
    Executor executor = entry.executor() != null ? entry.executor() : defaultExecutor;
    Map<String, String> headers = null;
    if (selector != null) {
      try {
        headers = frame.headerLength() == 0 ? Map.of() : HeaderCodec.read(frame.header());
        Executor chosen = selector.select(entry.method(), headers);
        if (chosen != null) {
          executor = chosen;
        }
      } catch (RuntimeException e) {
        log.warn("executor selector failed for request id {} from {} ({}); using the default executor",
            frame.requestId(), connection.remoteAddress(), e.toString());
        headers = null;
      }
    }
    InboundCall call = new InboundCall(connection, frame, entry, headers);
    try {
      executor.execute(call);
    } catch (RejectedExecutionException e) {
      call.rejectBusy();
    }
  }

  private static void refuseUnknown(BoltConnection connection, BoltFrame frame) {
    String className = frame.classNameString();
    int requestId = frame.requestId();
    boolean oneway = frame.isOneway();
    frame.release();
    log.warn("no service for className '{}' (request id {} from {})", className, requestId, connection.remoteAddress());
    if (!oneway) {
      connection.writeFrame(ErrorResponses.error(connection, requestId, ResponseStatus.NO_PROCESSOR, null,
          "no service is registered for className '" + className + "'", "dispatch"));
    }
  }
}
