/**
 * The transport tier: the one server call that every protocol's handler runs in. {@link
 * io.boltgen.runtime.call.ServerCalls} starts a call of any served method over a transport's {@link
 * io.boltgen.runtime.call.ServerStream} (Bolt frames, SOFARPC's dialect, Connect over HTTP/1.1 and HTTP/2), and
 * the call (package-private {@code ServedCall}) owns everything that is not the wire: the executor and the
 * shared tasks of one read ({@code SharedTask}), the current context ({@code CurrentCall}, {@code
 * ServedContext}), interceptors ({@code Interception}), the deadline and its one timer, cancellation ({@code
 * Cancellation}), the handler's logging context ({@code HandlerMdc}) and timing, and what a result or a failure
 * becomes ({@link io.boltgen.runtime.call.CallStatus}), which the transport writes in its own terms.
 *
 * <p>Public so that protocols plug into it; not for applications, and it may change in any minor release. It
 * uses the API and {@code support}, never the internals.
 */
package io.boltgen.runtime.call;
