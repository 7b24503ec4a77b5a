package io.boltgen.runtime.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.HttpObject;
import io.netty.util.ReferenceCountUtil;
import org.junit.jupiter.api.Test;

/** A streamed answer's parts waiting for the IO thread: room just under 64 KiB, none at it, told once caught up. */
class StreamedResponseTest {

  @Test
  void roomUpToItsBoundAndCaughtUpOnceWritten() {
    StreamedResponse parts = new StreamedResponse();
    parts.add(new DefaultHttpContent(Unpooled.buffer().writeZero(StreamedResponse.ROOM_BYTES - 1)));
    assertThat(parts.hasRoom()).as("one byte under the bound").isTrue();
    assertThat(parts.caughtUp()).as("nobody waited").isFalse();
    parts.add(new DefaultHttpContent(Unpooled.buffer().writeZero(1)));
    assertThat(parts.hasRoom()).as("at the bound").isFalse();
    assertThat(parts.caughtUp()).as("still at the bound").isFalse();
    HttpObject first = parts.poll();
    ReferenceCountUtil.release(first);
    assertThat(parts.caughtUp()).as("written: the waiter goes on").isTrue();
    assertThat(parts.caughtUp()).as("told once").isFalse();
    parts.release();
  }

  @Test
  void aPartAddedAfterTheReleaseIsFreedAtOnce() {
    StreamedResponse parts = new StreamedResponse();
    parts.release();
    DefaultHttpContent late = new DefaultHttpContent(Unpooled.buffer().writeZero(8));
    parts.add(late);
    assertThat(late.refCnt()).isZero();
    assertThat(parts.poll()).isNull();
  }
}
