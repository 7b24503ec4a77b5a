/**
 * Bolt requests served, each as a stream of the one server call ({@code io.boltgen.runtime.call}): the
 * {@link io.boltgen.runtime.internal.server.RequestDispatcher} finds a request's method in the
 * {@link io.boltgen.runtime.internal.server.MethodTable} by the className bytes of its frame (and its routing
 * headers), wraps the frame as a {@code BoltServerStream} and starts the call on its method's executor (a
 * server's own {@link io.boltgen.runtime.internal.server.WorkerPool} unless told otherwise); the stream writes the
 * call's end as a response frame. Not API: public only to {@code internal.provider}, and may change in any
 * release.
 *
 * <p>It uses the API, the call tier, {@code support} and the internals below it ({@code internal},
 * {@code internal.wire}), never {@code internal.cluster} or {@code internal.provider} ({@code ArchitectureTest}).
 */
package io.boltgen.runtime.internal.server;
