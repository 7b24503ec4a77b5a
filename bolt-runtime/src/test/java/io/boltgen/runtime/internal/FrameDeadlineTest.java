package io.boltgen.runtime.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.codec.RawBytesMarshaller;
import io.boltgen.runtime.internal.wire.Bolt;
import io.boltgen.runtime.internal.wire.FrameBatch;
import io.boltgen.runtime.internal.wire.FrameDecoder;
import io.boltgen.runtime.internal.wire.FrameEncoder;
import io.boltgen.runtime.internal.wire.FrameFormat;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The frame timeout on virtual time: an unfinished frame closes its connection, finished ones never do. */
class FrameDeadlineTest {

  private final FakeTimer timer = new FakeTimer();
  private EmbeddedChannel channel;
  private FrameDeadline deadline;
  private byte[] frame;

  @BeforeEach
  void setUp() {
    FrameDecoder decoder = new FrameDecoder(1 << 20);
    channel = new EmbeddedChannel();
    deadline = new FrameDeadline(channel, decoder, timer, timer::nanoTime, 10_000);
    channel.pipeline().addLast(decoder, new ChannelInboundHandlerAdapter() {
      @Override
      public void channelRead(ChannelHandlerContext ctx, Object msg) {
        CaptureCodecTest.releaseAll((FrameBatch) msg);
      }

      @Override
      public void channelReadComplete(ChannelHandlerContext ctx) {
        deadline.afterRead();
      }
    });
    ByteBuf encoded = FrameEncoder.request(UnpooledByteBufAllocator.DEFAULT, FrameFormat.of(Bolt.PROTOCOL_V2, (byte) 2, Bolt.SWITCH_CRC),
        Bolt.TYPE_REQUEST, 42, 3000, "test.Echo:1.0/echo".getBytes(StandardCharsets.UTF_8), Map.of(),
        RawBytesMarshaller.withCodecId((byte) 11), new byte[500], Integer.MAX_VALUE);
    frame = new byte[encoded.readableBytes()];
    encoded.readBytes(frame);
    encoded.release();
  }

  @AfterEach
  void tearDown() {
    channel.finishAndReleaseAll();
  }

  private void receive(int from, int to) {
    channel.writeInbound(Unpooled.wrappedBuffer(frame, from, to - from));
    channel.runPendingTasks();
  }

  private void advance(long millis) {
    timer.advance(millis, TimeUnit.MILLISECONDS);
    channel.runPendingTasks();
  }

  @Test
  void anUnfinishedRequestIsAnsweredAndItsConnectionClosedAtTheTimeout() {
    receive(0, 100);
    assertThat(timer.pending()).isEqualTo(1);
    advance(9_999);
    assertThat(channel.isActive()).isTrue();
    advance(1);
    assertThat(channel.isActive()).isFalse();
    ByteBuf answer = channel.readOutbound();
    try {
      assertThat(answer.getInt(6)).as("request id").isEqualTo(42);
      assertThat(answer.getShort(12)).isEqualTo(ResponseStatus.SERVER_DESERIAL_EXCEPTION.code());
    } finally {
      answer.release();
    }
  }

  @Test
  void theClockRunsFromTheFramesFirstByteNotFromTheLastRead() {
    receive(0, 10);
    advance(6_000);
    receive(10, 20); // more bytes of the same frame: still timed from its first byte
    advance(4_000);
    assertThat(channel.isActive()).isFalse();
  }

  @Test
  void aFrameFinishedInTimeStopsTheClockAndTheNextOneGetsItsOwn() {
    receive(0, 100);
    advance(9_000);
    receive(100, frame.length); // finished, 1 s to spare
    advance(5_000);
    assertThat(channel.isActive()).isTrue();
    assertThat(timer.pending()).as("nothing timed between frames").isZero();

    receive(0, 50); // the next frame starts now and gets the full 10 s
    advance(9_999);
    assertThat(channel.isActive()).isTrue();
    advance(1);
    assertThat(channel.isActive()).isFalse();
  }

  @Test
  void aFrameWhoseHeaderDidNotArriveIsClosedWithoutAnAnswer() {
    receive(0, 5);
    advance(10_000);
    assertThat(channel.isActive()).isFalse();
    Object answer = channel.readOutbound();
    assertThat(answer).isNull();
  }
}
