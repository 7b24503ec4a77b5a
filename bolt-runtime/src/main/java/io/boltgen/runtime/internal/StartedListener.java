package io.boltgen.runtime.internal;

import io.boltgen.runtime.ClientCall;

/**
 * How a started {@link ClientCall} tells its caller's listener: the caller's demand in ({@link #request}), the
 * call's completion out ({@link CallListener#onComplete}). A unary call's is a {@link StreamListener}, a
 * server-streaming call's a {@link StreamedMessages}.
 *
 * @param <R> the response type
 */
interface StartedListener<R> extends CallListener<R> {

  /** The caller asks for {@code count} more messages (positive). */
  void request(int count);
}
