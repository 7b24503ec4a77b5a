package io.boltgen.runtime.internal.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.runtime.call.StatusCode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The frames of a gRPC answer in gRPC's order, and its bound: messages queued for the IO thread leave room under
 * {@value GrpcAnswer#CAUGHT_UP_BYTES} bytes and none at it, and whoever was told no is told once the IO thread
 * caught up; messages it finds together share DATA frames up to the batch bounds. On an embedded channel, whose IO
 * thread runs when the test says so.
 */
class GrpcAnswerTest {

  private static List<Object> written(EmbeddedChannel channel) {
    List<Object> out = new ArrayList<>();
    for (Object frame = channel.readOutbound(); frame != null; frame = channel.readOutbound()) {
      out.add(frame);
    }
    return out;
  }

  private static void release(List<Object> frames) {
    frames.forEach(ReferenceCountUtil::release);
  }

  @Test
  void roomJustUnderTheBoundNoneAtItAndTheCallerToldWhenTheIoThreadCaughtUp() {
    EmbeddedChannel channel = new EmbeddedChannel();
    AtomicInteger caughtUp = new AtomicInteger();
    GrpcAnswer answer = new GrpcAnswer(channel, false, caughtUp::incrementAndGet);
    answer.message(Unpooled.buffer().writeZero(GrpcAnswer.CAUGHT_UP_BYTES - 1));
    assertThat(answer.hasRoom()).as("one byte under the bound").isTrue();
    answer.message(Unpooled.buffer().writeZero(1));
    assertThat(answer.hasRoom()).as("at the bound").isFalse();
    assertThat(caughtUp).hasValue(0);
    channel.runPendingTasks(); // the IO thread writes all it finds, flushes once
    assertThat(answer.hasRoom()).isTrue();
    assertThat(caughtUp).as("told once, having been told no").hasValue(1);
    List<Object> frames = written(channel);
    assertThat(frames).hasSize(3);
    assertThat(frames.get(0)).isInstanceOf(Http2HeadersFrame.class);
    assertThat(frames.subList(1, 3)).allMatch(f -> f instanceof Http2DataFrame);
    release(frames);
    // under the bound, nobody waits: no signal
    answer.message(Unpooled.buffer().writeZero(10));
    channel.runPendingTasks();
    assertThat(caughtUp).hasValue(1);
    release(written(channel));
    assertThat(channel.finishAndReleaseAll()).isFalse();
  }

  @Test
  void messagesFoundTogetherShareDataFramesCutAtTheBatchBoundsInOrder() {
    EmbeddedChannel channel = new EmbeddedChannel();
    GrpcAnswer answer = new GrpcAnswer(channel, false, () -> { });
    ByteBuf expected = Unpooled.buffer();
    List<ByteBuf> sent = new ArrayList<>();
    for (int i = 0; i < GrpcAnswer.BATCH_MESSAGES + 3; i++) { // a frame of BATCH_MESSAGES, then 3 more begin one
      sent.add(Unpooled.buffer().writeInt(i));
    }
    sent.add(Unpooled.buffer().writeZero(GrpcAnswer.BATCH_BYTES - 12).setByte(0, 7)); // fills that one exactly
    sent.add(Unpooled.buffer().writeByte(9)); // one byte past BATCH_BYTES: a frame of its own
    for (ByteBuf message : sent) {
      expected.writeBytes(message, message.readerIndex(), message.readableBytes());
      answer.message(message);
    }
    answer.end(null, StatusCode.OK, null, null);
    channel.runPendingTasks();
    List<Object> frames = written(channel);
    assertThat(frames).hasSize(5);
    assertThat(frames.get(0)).isInstanceOf(Http2HeadersFrame.class);
    assertThat(frames.subList(1, 4)).extracting(f -> ((Http2DataFrame) f).content().readableBytes())
        .containsExactly(4 * GrpcAnswer.BATCH_MESSAGES, GrpcAnswer.BATCH_BYTES, 1);
    ByteBuf all = Unpooled.buffer();
    frames.subList(1, 4).forEach(f -> all.writeBytes(((Http2DataFrame) f).content().duplicate()));
    assertThat(ByteBufUtil.equals(all, expected)).as("every byte, in order").isTrue();
    assertThat(((Http2HeadersFrame) frames.get(4)).isEndStream()).isTrue();
    release(frames);
    assertThat(sent).as("each message released with its frame").allMatch(m -> m.refCnt() == 0);
    all.release();
    expected.release();
    assertThat(channel.finishAndReleaseAll()).isFalse();
  }

  @Test
  void theEndComesAfterTheMessagesAndWhatFollowsItIsDropped() {
    EmbeddedChannel channel = new EmbeddedChannel();
    GrpcAnswer answer = new GrpcAnswer(channel, false, () -> { });
    answer.message(Unpooled.buffer().writeZero(5));
    answer.end(null, StatusCode.OK, null, null);
    io.netty.buffer.ByteBuf late = Unpooled.buffer().writeZero(5);
    answer.message(late);
    channel.runPendingTasks();
    List<Object> frames = written(channel);
    assertThat(frames).hasSize(3); // headers, the message, trailers
    assertThat(((Http2HeadersFrame) frames.get(2)).isEndStream()).isTrue();
    assertThat(((Http2HeadersFrame) frames.get(2)).headers().get("grpc-status")).hasToString("0");
    assertThat(late.refCnt()).as("dropped after the end, and released").isZero();
    release(frames);
    // a failure before any message is trailers only
    EmbeddedChannel other = new EmbeddedChannel();
    GrpcAnswer failed = new GrpcAnswer(other, true, () -> { });
    failed.end(null, StatusCode.INTERNAL, "boom", null);
    other.runPendingTasks();
    List<Object> only = written(other);
    assertThat(only).singleElement().satisfies(f -> {
      Http2HeadersFrame h = (Http2HeadersFrame) f;
      assertThat(h.isEndStream()).isTrue();
      assertThat(h.headers().status()).hasToString("200");
      assertThat(h.headers().get("content-type")).hasToString("application/grpc+json");
      assertThat(h.headers().get("grpc-status")).hasToString("13");
    });
    assertThat(channel.finishAndReleaseAll()).isFalse();
    assertThat(other.finishAndReleaseAll()).isFalse();
  }
}
