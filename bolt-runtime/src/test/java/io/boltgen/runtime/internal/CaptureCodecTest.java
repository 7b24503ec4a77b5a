package io.boltgen.runtime.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.codec.RawBytesMarshaller;
import io.boltgen.runtime.internal.wire.Bolt;
import io.boltgen.runtime.internal.wire.BoltFrame;
import io.boltgen.runtime.internal.wire.FrameBatch;
import io.boltgen.runtime.internal.wire.FrameDecoder;
import io.boltgen.runtime.internal.wire.FrameEncoder;
import io.boltgen.runtime.internal.wire.FrameFormat;
import io.boltgen.runtime.internal.wire.HeadersCodec;
import io.boltgen.testing.RawFrames;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.zip.CRC32;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every hex capture below (taken from a real SOFABolt 1.6.10) decodes to the fields it shows
 * and re-encodes to the same bytes; our own encoders produce those same bytes.
 */
class CaptureCodecTest {

  /** A capture: V2, version 2, CRC switch, timeout 3000, id 9 — the CRC the server accepted. */
  static final String V2_CRC_REQUEST =
      "0202 0100 0101 0000 0009 0101 0000 0bb8 0010 0000 0000 0006 \"java.lang.String\" 0568656c6c6f 0cd24d81";
  /** A capture: a default RpcClient's V1 request (timeout 500, id 2). */
  static final String V1_REQUEST =
      "01 01 0001 01 00000002 01 000001f4 0010 0000 00000006 \"java.lang.String\" 0568656c6c6f";
  /** A capture: the V1 response to it. */
  static final String V1_RESPONSE =
      "01 00 0002 01 00000007 01 0000 0010 0000 0000000b \"java.lang.String\" 0a\"echo:hello\"";
  static final String V1_HEARTBEAT = "01 01 0000 01 00000003 01 ffffffff 0000 0000 00000000";
  static final String V1_HEARTBEAT_ACK = "01 00 0000 01 00000003 01 0000 0000 0000 00000000";
  static final String V2_HEARTBEAT = "02 02 01 0000 01 00000004 01 00 ffffffff 0000 0000 00000000";

  private final EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(16 * 1024 * 1024));

  @AfterEach
  void close() {
    channel.finishAndReleaseAll();
  }

  private BoltFrame decodeOne(String capture) {
    channel.writeInbound(Unpooled.wrappedBuffer(Hex.bytes(capture)));
    FrameBatch batch = channel.readInbound();
    assertThat(batch.size()).isEqualTo(1);
    assertThat(channel.<Object>readInbound()).isNull();
    return batch.get(0);
  }

  /** Releases every frame of {@code batch}. */
  static void releaseAll(FrameBatch batch) {
    for (int i = 0; i < batch.size(); i++) {
      batch.get(i).release();
    }
  }

  private static void assertReencodes(BoltFrame frame, String capture) {
    byte[] again = RawFrames.frame(frame.protocolCode(), frame.version(), frame.switchFlags(), frame.type(),
        frame.cmdCode(), frame.commandVersion(), frame.requestId(), frame.codec(),
        frame.isRequest() ? frame.timeout() : frame.status(), ByteBufUtil.getBytes(frame.className()),
        ByteBufUtil.getBytes(frame.headers()), ByteBufUtil.getBytes(frame.content()));
    assertThat(ByteBufUtil.hexDump(again)).isEqualTo(ByteBufUtil.hexDump(Hex.bytes(capture)));
  }

  @Test
  void theCrcOfTheCheckedCaptureIsZlibCrc32() {
    byte[] frame = Hex.bytes(V2_CRC_REQUEST);
    CRC32 crc = new CRC32();
    crc.update(frame, 0, frame.length - 4);
    assertThat(crc.getValue()).isEqualTo(0x0cd24d81L);
  }

  @Test
  void v2CrcRequest() {
    BoltFrame frame = decodeOne(V2_CRC_REQUEST);
    try {
      assertThat(frame.protocolCode()).isEqualTo(Bolt.PROTOCOL_V2);
      assertThat(frame.version()).isEqualTo((byte) 2);
      assertThat(frame.type()).isEqualTo(Bolt.TYPE_REQUEST);
      assertThat(frame.cmdCode()).isEqualTo(Bolt.CMD_REQUEST);
      assertThat(frame.requestId()).isEqualTo(9);
      assertThat(frame.codec()).isEqualTo((byte) 1);
      assertThat(frame.switchFlags()).isEqualTo((byte) 1);
      assertThat(frame.hasCrc()).isTrue();
      assertThat(frame.timeout()).isEqualTo(3000);
      assertThat(frame.classNameString()).isEqualTo("java.lang.String");
      assertThat(frame.headersLength()).isZero();
      assertThat(ByteBufUtil.hexDump(frame.content())).isEqualTo("0568656c6c6f");
      assertReencodes(frame, V2_CRC_REQUEST);
    } finally {
      frame.release();
    }
  }

  @Test
  void ourRequestEncoderWritesTheSameV2CrcBytes() {
    ByteBuf ours = FrameEncoder.request(ByteBufAllocator.DEFAULT, FrameFormat.of(Bolt.PROTOCOL_V2, (byte) 2, Bolt.SWITCH_CRC),
        Bolt.TYPE_REQUEST, 9, 3000, "java.lang.String".getBytes(StandardCharsets.UTF_8), Map.of(),
        RawBytesMarshaller.withCodecId((byte) 1), Hex.bytes("0568656c6c6f"), Integer.MAX_VALUE);
    try {
      assertThat(Hex.hex(ours)).isEqualTo(ByteBufUtil.hexDump(Hex.bytes(V2_CRC_REQUEST)));
    } finally {
      ours.release();
    }
  }

  @Test
  void v1Request() {
    BoltFrame frame = decodeOne(V1_REQUEST);
    try {
      assertThat(frame.protocolCode()).isEqualTo(Bolt.PROTOCOL_V1);
      assertThat(frame.version()).isZero();
      assertThat(frame.isRequest()).isTrue();
      assertThat(frame.isOneway()).isFalse();
      assertThat(frame.requestId()).isEqualTo(2);
      assertThat(frame.timeout()).isEqualTo(500);
      assertThat(frame.hasCrc()).isFalse();
      assertThat(frame.classNameString()).isEqualTo("java.lang.String");
      assertThat(frame.contentLength()).isEqualTo(6);
      assertReencodes(frame, V1_REQUEST);
    } finally {
      frame.release();
    }
    ByteBuf ours = FrameEncoder.request(ByteBufAllocator.DEFAULT, FrameFormat.of(Bolt.PROTOCOL_V1, (byte) 0, (byte) 0),
        Bolt.TYPE_REQUEST, 2, 500, "java.lang.String".getBytes(StandardCharsets.UTF_8), Map.of(),
        RawBytesMarshaller.withCodecId((byte) 1), Hex.bytes("0568656c6c6f"), Integer.MAX_VALUE);
    try {
      assertThat(Hex.hex(ours)).isEqualTo(ByteBufUtil.hexDump(Hex.bytes(V1_REQUEST)));
    } finally {
      ours.release();
    }
  }

  @Test
  void v1Response() {
    BoltFrame frame = decodeOne(V1_RESPONSE);
    try {
      assertThat(frame.isRequest()).isFalse();
      assertThat(frame.cmdCode()).isEqualTo(Bolt.CMD_RESPONSE);
      assertThat(frame.requestId()).isEqualTo(7);
      assertThat(frame.status()).isEqualTo(ResponseStatus.SUCCESS.code());
      assertThat(frame.classNameString()).isEqualTo("java.lang.String");
      assertThat(frame.content().toString(StandardCharsets.UTF_8)).isEqualTo("\necho:hello");
      assertReencodes(frame, V1_RESPONSE);
    } finally {
      frame.release();
    }
    ByteBuf ours = FrameEncoder.response(ByteBufAllocator.DEFAULT, FrameFormat.of(Bolt.PROTOCOL_V1, (byte) 0, (byte) 0), 7,
        (byte) 1, ResponseStatus.SUCCESS, "java.lang.String".getBytes(StandardCharsets.UTF_8), Map.of(),
        RawBytesMarshaller.withCodecId((byte) 1), Hex.bytes("0a\"echo:hello\""), Integer.MAX_VALUE);
    try {
      assertThat(Hex.hex(ours)).isEqualTo(ByteBufUtil.hexDump(Hex.bytes(V1_RESPONSE)));
    } finally {
      ours.release();
    }
  }

  @Test
  void heartbeatsAndAcks() {
    BoltFrame heartbeat = decodeOne(V1_HEARTBEAT);
    try {
      assertThat(heartbeat.isHeartbeat()).isTrue();
      assertThat(heartbeat.isRequest()).isTrue();
      assertThat(heartbeat.timeout()).isEqualTo(-1);
      assertThat(heartbeat.requestId()).isEqualTo(3);
      assertReencodes(heartbeat, V1_HEARTBEAT);
    } finally {
      heartbeat.release();
    }
    BoltFrame ack = decodeOne(V1_HEARTBEAT_ACK);
    try {
      assertThat(ack.isHeartbeat()).isTrue();
      assertThat(ack.isRequest()).isFalse();
      assertThat(ack.status()).isZero();
      assertReencodes(ack, V1_HEARTBEAT_ACK);
    } finally {
      ack.release();
    }
    BoltFrame v2 = decodeOne(V2_HEARTBEAT);
    try {
      assertThat(v2.isHeartbeat()).isTrue();
      assertThat(v2.version()).isEqualTo((byte) 2);
      assertThat(v2.switchFlags()).isZero();
      assertThat(v2.hasCrc()).isFalse();
      assertReencodes(v2, V2_HEARTBEAT);
    } finally {
      v2.release();
    }
    assertEncoded(FrameEncoder.heartbeat(ByteBufAllocator.DEFAULT, FrameFormat.of(Bolt.PROTOCOL_V1, (byte) 0, (byte) 0), 3), V1_HEARTBEAT);
    assertEncoded(FrameEncoder.heartbeatAck(ByteBufAllocator.DEFAULT, FrameFormat.of(Bolt.PROTOCOL_V1, (byte) 0, (byte) 0), 3), V1_HEARTBEAT_ACK);
    assertEncoded(FrameEncoder.heartbeat(ByteBufAllocator.DEFAULT, FrameFormat.of(Bolt.PROTOCOL_V2, (byte) 2, (byte) 0), 4), V2_HEARTBEAT);
  }

  private static void assertEncoded(ByteBuf ours, String capture) {
    try {
      assertThat(Hex.hex(ours)).isEqualTo(ByteBufUtil.hexDump(Hex.bytes(capture)));
    } finally {
      ours.release();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {V2_CRC_REQUEST, V1_REQUEST, V1_RESPONSE, V1_HEARTBEAT, V1_HEARTBEAT_ACK, V2_HEARTBEAT})
  void everyCaptureDecodesWhenItArrivesOneByteAtATime(String capture) {
    byte[] bytes = Hex.bytes(capture);
    for (int i = 0; i < bytes.length - 1; i++) {
      channel.writeInbound(Unpooled.wrappedBuffer(bytes, i, 1));
      assertThat(channel.<Object>readInbound()).as("nothing before the last byte").isNull();
    }
    channel.writeInbound(Unpooled.wrappedBuffer(bytes, bytes.length - 1, 1));
    FrameBatch batch = channel.readInbound();
    assertThat(batch.size()).isEqualTo(1);
    assertReencodes(batch.get(0), capture);
    releaseAll(batch);
  }

  @Test
  void oneReadWithManyFramesIsOneBatch() {
    ByteBuf all = Unpooled.buffer();
    for (String capture : new String[] {V1_REQUEST, V1_HEARTBEAT, V2_CRC_REQUEST, V1_RESPONSE}) {
      all.writeBytes(Hex.bytes(capture));
    }
    all.writeBytes(Hex.bytes(V1_REQUEST), 0, 10); // and the start of a fifth
    channel.writeInbound(all);
    FrameBatch batch = channel.readInbound();
    try {
      assertThat(batch.size()).isEqualTo(4);
      assertThat(batch.get(0).requestId()).isEqualTo(2);
      assertThat(batch.get(1).isHeartbeat()).isTrue();
      assertThat(batch.get(2).hasCrc()).isTrue();
      assertThat(batch.get(3).isRequest()).isFalse();
    } finally {
      releaseAll(batch);
    }
    assertThat(channel.<Object>readInbound()).isNull();
    channel.writeInbound(Unpooled.wrappedBuffer(Hex.bytes(V1_REQUEST), 10, Hex.bytes(V1_REQUEST).length - 10));
    FrameBatch rest = channel.readInbound();
    assertThat(rest.size()).isEqualTo(1);
    releaseAll(rest);
  }

  @Test
  void everyResponseStatusRoundTrips() {
    for (ResponseStatus status : ResponseStatus.values()) {
      ByteBuf encoded = FrameEncoder.response(ByteBufAllocator.DEFAULT, FrameFormat.of(Bolt.PROTOCOL_V2, (byte) 2, Bolt.SWITCH_CRC),
          42, (byte) 11, status, new byte[0], Map.of(), RawBytesMarshaller.withCodecId((byte) 11), new byte[] {1, 2},
          Integer.MAX_VALUE);
      channel.writeInbound(encoded);
      FrameBatch batch = channel.readInbound();
      try {
        assertThat(ResponseStatus.fromCode(batch.get(0).status())).isEqualTo(status);
      } finally {
        releaseAll(batch);
      }
    }
    assertThat(ResponseStatus.fromCode(0x10)).isEqualTo(ResponseStatus.CONNECTION_CLOSED);
    assertThat(ResponseStatus.fromCode(0x12)).isEqualTo(ResponseStatus.SERVER_DESERIAL_EXCEPTION);
    assertThat(ResponseStatus.fromCode(0x0a)).isNull();
  }

  @Test
  void headersUseSofaRpcsKeyValueLayout() {
    Map<String, String> header = new java.util.LinkedHashMap<>();
    header.put("service", "demo.Inventory:1.0");
    header.put("empty", "");
    header.put("nothing", null);
    ByteBuf buf = Unpooled.buffer();
    try {
      HeadersCodec.write(header, buf);
      assertThat(buf.readableBytes()).isEqualTo(HeadersCodec.encodedSize(header));
      assertThat(Hex.hex(buf)).startsWith("00000007" + ByteBufUtil.hexDump("service".getBytes(StandardCharsets.UTF_8))
          + "00000012");
      assertThat(Hex.hex(buf)).endsWith("ffffffff");
      assertThat(HeadersCodec.read(buf)).containsExactlyEntriesOf(header);
    } finally {
      buf.release();
    }
  }
}
