package io.boltgen.runtime.internal.wire;

import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.testing.RawFrames;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * How the decoder buffers frames that arrive in pieces: small frames are merged into one buffer; once
 * {@link FrameDecoder#COMPOSITE_AFTER} bytes of a frame are buffered, the rest is kept as components, not
 * copied; either way every frame decodes to exactly its bytes (CRC checked) and the next small frame after a
 * large one decodes as before.
 */
class FrameDecoderCumulationTest {

  @Test
  void aLargeFrameArrivingInPiecesIsKeptAsComponentsAndDecodesToItsBytes() {
    byte[] content = new byte[1 << 20];
    new Random(1).nextBytes(content);
    byte[] large = RawFrames.request("svc:1.0:echo", 7, content, 1000);
    byte[] small = RawFrames.request("svc:1.0:echo", 8, new byte[] {1, 2, 3}, 1000);
    EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(8 << 20));
    List<BoltFrame> frames = new ArrayList<>();
    try {
      boolean sawComposite = false;
      int chunk = 8 * 1024;
      for (int at = 0; at < large.length; at += chunk) {
        int n = Math.min(chunk, large.length - at);
        byte[] piece = new byte[n];
        System.arraycopy(large, at, piece, 0, n);
        ByteBuf direct = channel.alloc().directBuffer(n).writeBytes(piece);
        channel.writeInbound(direct);
        collect(channel, frames);
        FrameDecoder decoder = channel.pipeline().get(FrameDecoder.class);
        if (decoder != null && decoder.pendingBytes() > FrameDecoder.COMPOSITE_AFTER + chunk) {
          sawComposite |= decoder.buffered() instanceof CompositeByteBuf;
        }
      }
      assertThat(sawComposite).as("the rest of the large frame is added as components").isTrue();
      assertThat(frames).hasSize(1);
      BoltFrame frame = frames.get(0);
      assertThat(frame.requestId()).isEqualTo(7);
      assertThat(ByteBufUtil.getBytes(frame.content())).isEqualTo(content);

      channel.writeInbound(Unpooled.wrappedBuffer(small, 0, 10));
      channel.writeInbound(Unpooled.wrappedBuffer(small, 10, small.length - 10));
      collect(channel, frames);
      assertThat(frames).hasSize(2);
      assertThat(ByteBufUtil.getBytes(frames.get(1).content())).containsExactly(1, 2, 3);
      assertThat(channel.pipeline().get(FrameDecoder.class).buffered())
          .as("small frames are merged again").isNotInstanceOf(CompositeByteBuf.class);
    } finally {
      frames.forEach(BoltFrame::release);
      channel.finishAndReleaseAll();
    }
  }

  private static void collect(EmbeddedChannel channel, List<BoltFrame> frames) {
    for (FrameBatch batch; (batch = channel.readInbound()) != null; ) {
      for (int i = 0; i < batch.size(); i++) {
        frames.add(batch.get(i));
      }
    }
  }
}
