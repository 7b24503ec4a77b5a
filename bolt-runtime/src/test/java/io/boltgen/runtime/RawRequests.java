package io.boltgen.runtime;

import io.boltgen.runtime.codec.RawBytesMarshaller;
import io.boltgen.runtime.protocol.Bolt;
import io.boltgen.runtime.protocol.FrameEncoder;
import io.boltgen.runtime.service.MethodDescriptor;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** Request frames as bytes, for tests that play a raw client. */
final class RawRequests {

  private RawRequests() {}

  /** A V2 request (CRC on) for {@code method}, with request id {@code id}. */
  static byte[] request(MethodDescriptor<?, ?> method, int id, byte[] content, int timeoutMillis) {
    return request(method.wireName(), id, content, timeoutMillis);
  }

  /** A V2 request (CRC on) for {@code className}, with request id {@code id}. */
  static byte[] request(String className, int id, byte[] content, int timeoutMillis) {
    ByteBuf frame = FrameEncoder.request(UnpooledByteBufAllocator.DEFAULT, Bolt.PROTOCOL_V2, (byte) 2, Bolt.SWITCH_CRC,
        Bolt.TYPE_REQUEST, id, timeoutMillis, className.getBytes(StandardCharsets.UTF_8), Map.of(),
        RawBytesMarshaller.withCodecId((byte) 11), content, Integer.MAX_VALUE);
    try {
      return ByteBufUtil.getBytes(frame);
    } finally {
      frame.release();
    }
  }
}
