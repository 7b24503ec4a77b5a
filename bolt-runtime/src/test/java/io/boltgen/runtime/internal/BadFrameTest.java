package io.boltgen.runtime.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.boltgen.runtime.internal.wire.BoltFrameException;
import io.boltgen.runtime.internal.wire.FrameBatch;
import io.boltgen.runtime.internal.wire.FrameDecoder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Input that is not valid Bolt fails with a reason, leaks nothing, and stops all further decoding. */
class BadFrameTest {

  private final EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(1024));

  @AfterEach
  void close() {
    channel.finishAndReleaseAll();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "unknown protocol code | 05 01 0001 01 00000002 01 000001f4 0000 0000 00000000 | unknown protocol code 0x05",
      "V2 version 3 | 02 03 01 0001 01 00000002 01 00 000001f4 0000 0000 00000000 | unsupported RpcProtocolV2 version 3",
      "unknown type | 01 07 0001 01 00000002 01 000001f4 0000 0000 00000000 | unknown frame type 0x07",
      "unknown request cmdCode | 01 01 0005 01 00000002 01 000001f4 0000 0000 00000000 | unknown command code 5",
      "response cmdCode in a request | 01 01 0002 01 00000002 01 000001f4 0000 0000 00000000 | unknown command code 2 in a request",
      "negative class length | 01 01 0001 01 00000002 01 000001f4 ffff 0000 00000000 | negative length",
      "negative content length | 01 01 0001 01 00000002 01 000001f4 0000 0000 ffffffff | negative length",
      "negative switch | 02 02 01 0001 01 00000002 01 80 000001f4 0000 0000 00000000 | invalid switch byte -128",
      "unknown status | 01 00 0002 01 00000007 01 000a 0000 0000 00000000 | unknown response status 10",
      "over the size limit | 01 01 0001 01 00000002 01 000001f4 0000 0000 00100000 | exceeds the limit of 1024",
      "bad CRC | 0202 0100 0101 0000 0009 0101 0000 0bb8 0010 0000 0000 0006 \"java.lang.String\" 0568656c6c6f 0cd24d80 | CRC32 mismatch",
  })
  void refused(String what, String capture, String reason) {
    assertThatThrownBy(() -> channel.writeInbound(Unpooled.wrappedBuffer(Hex.bytes(capture))))
        .isInstanceOf(BoltFrameException.class)
        .hasMessageContaining(reason);
    assertThat(channel.<Object>readInbound()).isNull();
    // the decoder has given up on this connection: even a valid frame is discarded now
    channel.writeInbound(Unpooled.wrappedBuffer(Hex.bytes(CaptureCodecTest.V1_HEARTBEAT)));
    assertThat(channel.<Object>readInbound()).isNull();
  }

  @Test
  void anOversizeFrameIsRefusedFromItsHeaderAlone() {
    // only the 22 header bytes arrive; the decoder must not wait for 16 MiB to refuse it
    assertThatThrownBy(() -> channel.writeInbound(Unpooled.wrappedBuffer(
        Hex.bytes("01 01 0001 01 00000002 01 000001f4 0000 0000 01000000"))))
        .isInstanceOf(BoltFrameException.class)
        .hasMessageContaining("16777238 bytes exceeds the limit of 1024");
  }

  @Test
  void framesBeforeABadOneAreStillDelivered() {
    ByteBuf both = Unpooled.buffer();
    both.writeBytes(Hex.bytes(CaptureCodecTest.V1_HEARTBEAT));
    both.writeBytes(Hex.bytes("09 00"));
    assertThatThrownBy(() -> channel.writeInbound(both)).isInstanceOf(BoltFrameException.class);
    FrameBatch batch = channel.readInbound();
    assertThat(batch.size()).isEqualTo(1);
    assertThat(batch.get(0).isHeartbeat()).isTrue();
    CaptureCodecTest.releaseAll(batch);
  }

  /** Seeded garbage (and garbage after valid frames) either decodes or fails cleanly; nothing leaks. */
  @Test
  void randomBytesNeverLeakOrEscapeAsAnotherException() {
    Random random = new Random(20261129L);
    byte[] valid = Hex.bytes(CaptureCodecTest.V2_CRC_REQUEST);
    for (int round = 0; round < 2_000; round++) {
      EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(4096));
      try {
        byte[] noise = new byte[random.nextInt(64)];
        random.nextBytes(noise);
        if (random.nextBoolean()) {
          // mutate one byte of a valid frame: every field gets hit over the rounds
          noise = valid.clone();
          noise[random.nextInt(noise.length)] ^= (byte) (1 + random.nextInt(255));
        }
        try {
          ch.writeInbound(Unpooled.wrappedBuffer(noise));
        } catch (BoltFrameException expected) {
          // refused with a reason
        }
        for (Object batch; (batch = ch.readInbound()) != null; ) {
          CaptureCodecTest.releaseAll((FrameBatch) batch);
        }
      } finally {
        ch.finishAndReleaseAll();
      }
    }
  }
}
