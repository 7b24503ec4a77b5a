/**
 * Invocation: a call from the moment a stub starts it until it completes, exactly once. This is where a
 * call times out ({@link io.boltgen.runtime.invoke.PendingCall#run}, on the process's single
 * {@code HashedWheelTimer}; sync callers wait with their own deadline instead), where a response is
 * matched to its call ({@link io.boltgen.runtime.invoke.CallTable}) and decoded, and where the four call
 * styles are built ({@link io.boltgen.runtime.invoke.CallChannel}).
 *
 * <p>Internal: not API.
 */
package io.boltgen.runtime.invoke;
