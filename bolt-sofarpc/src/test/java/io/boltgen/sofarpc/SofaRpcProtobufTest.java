package io.boltgen.sofarpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.codec.FailureMarshaller;
import io.boltgen.runtime.codec.Marshaller;
import io.boltgen.runtime.codec.RawBytesMarshaller;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SofaRpcProtobufTest {

  @SuppressWarnings("ArrayRecordComponent") // only carries the bytes into the marshaller
  record Arg(byte[] message) {}

  private static final Marshaller<Arg> REQUEST = SofaRpcProtobuf.request(RawBytesMarshaller.withCodecId((byte) 11), Arg::message,
      Arg::new, 0);
  private static final FailureMarshaller<byte[]> RESPONSE = SofaRpcProtobuf.response(RawBytesMarshaller.withCodecId((byte) 11),
      e -> e instanceof IllegalStateException ? "com.example.Refused" : null, 0);

  private static <T> ByteBuf write(Marshaller<T> marshaller, T value) {
    int size = marshaller.encodedSize(value);
    ByteBuf buf = Unpooled.buffer(size, size); // exactly the announced size, as a frame is
    marshaller.write(value, buf);
    assertThat(buf.readableBytes()).isEqualTo(size);
    return buf;
  }

  @Test
  void aMessageIsItsOwnBytes() {
    ByteBuf buf = write(REQUEST, new Arg(new byte[] {8, 1}));
    assertThat(ByteBufUtil.getBytes(buf)).containsExactly(8, 1);
    assertThat(REQUEST.read(buf).message()).containsExactly(8, 1);
  }

  @Test
  void anEmptyMessageIsSentAsOneOfItsFieldsAtItsDefault() {
    // field 2 varint, field 3 fixed64, field 4 length-delimited (an empty string or packed list), field 5 fixed32
    assertThat(write(SofaRpcProtobuf.request(RawBytesMarshaller.withCodecId((byte) 11), Arg::message, Arg::new,
        2 << 3), new Arg(new byte[0])).array()).containsExactly(0x10, 0);
    assertThat(write(SofaRpcProtobuf.request(RawBytesMarshaller.withCodecId((byte) 11), Arg::message, Arg::new,
        3 << 3 | 1), new Arg(new byte[0])).array()).containsExactly(0x19, 0, 0, 0, 0, 0, 0, 0, 0);
    assertThat(ByteBufUtil.getBytes(write(SofaRpcProtobuf.response(RawBytesMarshaller.withCodecId((byte) 11),
        e -> null, 4 << 3 | 2), new byte[0]))).containsExactly(0x22, 0);
    assertThat(SofaRpcProtobuf.defaultField(5 << 3 | 5)).containsExactly(0x2d, 0, 0, 0, 0);
    assertThat(SofaRpcProtobuf.defaultField(300 << 3)).containsExactly(0xe0, 0x12, 0);
    assertThatThrownBy(() -> SofaRpcProtobuf.defaultField(1 << 3 | 3)).isInstanceOf(IllegalArgumentException.class);
    assertThat(ByteBufUtil.getBytes(write(REQUEST, new Arg(new byte[] {8, 1})))).as("a message with bytes: its own")
        .containsExactly(8, 1);
  }

  @Test
  void anEmptyMessageWithoutAFieldToWriteIsSentAsAFillerEveryParserSkips() {
    ByteBuf buf = write(REQUEST, new Arg(new byte[0]));
    // field 536870911, varint 0: a tag and a value, never empty
    assertThat(ByteBufUtil.getBytes(buf)).containsExactly(0xf8, 0xff, 0xff, 0xff, 0x0f, 0x00);
    assertThat(ByteBufUtil.getBytes(write(RESPONSE, new byte[0]))).hasSize(6);
  }

  @Test
  void aFailureIsItsMessageInUtf8WithTheErrorHeader() {
    IllegalStateException failure = new IllegalStateException("refusé: 🚀");
    int size = RESPONSE.failureSize(failure);
    ByteBuf buf = Unpooled.buffer(size, size);
    RESPONSE.writeFailure(failure, buf);
    Map<String, String> headers = RESPONSE.failureHeaders(failure);
    assertThat(headers).containsEntry("sofa_head_response_error", "true")
        .containsEntry("boltgen.error.class", "com.example.Refused");
    assertThatThrownBy(() -> RESPONSE.read(buf, headers)).isInstanceOfSatisfying(BoltException.class, e -> {
      assertThat(e.status()).isEqualTo(ResponseStatus.SERVER_EXCEPTION);
      assertThat(e.remoteClassName()).isEqualTo("com.example.Refused");
      assertThat(e.remoteMessage()).isEqualTo("refusé: 🚀");
    });
  }

  @Test
  void aSofaRpcProvidersFailureHasNoClass() {
    ByteBuf buf = Unpooled.copiedBuffer("refused: no way", java.nio.charset.StandardCharsets.UTF_8);
    assertThatThrownBy(() -> RESPONSE.read(buf, Map.of("sofa_head_response_error", "true")))
        .isInstanceOfSatisfying(BoltException.class, e -> {
          assertThat(e.remoteClassName()).isNull();
          assertThat(e.remoteMessage()).isEqualTo("refused: no way");
        });
    assertThat(RESPONSE.failureHeaders(new RuntimeException("x")))
        .containsEntry("boltgen.error.class", "java.lang.RuntimeException");
  }

  private static String answeredMessage(String message) {
    IllegalStateException failure = new IllegalStateException(message);
    int size = RESPONSE.failureSize(failure);
    ByteBuf buf = Unpooled.buffer(size, size);
    RESPONSE.writeFailure(failure, buf);
    return buf.toString(java.nio.charset.StandardCharsets.UTF_8);
  }

  @Test
  void aFailureMessageIsCutJustOverItsLimit() {
    String most = "m".repeat(SofaRpc.MAX_MESSAGE_CHARS);
    assertThat(answeredMessage(most)).isEqualTo(most);
    assertThat(answeredMessage(most + "x")).isEqualTo(most);
  }
}
