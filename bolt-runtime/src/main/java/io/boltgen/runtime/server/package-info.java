/**
 * Server dispatch: where a method is dispatched. {@link io.boltgen.runtime.server.RequestDispatcher}
 * looks up the className of each request frame (without decoding it to a String) and hands an
 * {@link io.boltgen.runtime.server.InboundCall} to the method's executor; the call checks the caller's
 * deadline (fail-fast), decodes the request, runs the {@code ServiceInvoker} and encodes the answer.
 * Error answers are built in {@link io.boltgen.runtime.server.ErrorResponses}.
 *
 * <p>Used by servers and by clients (for duplex calls). Internal: not API.
 */
package io.boltgen.runtime.server;
