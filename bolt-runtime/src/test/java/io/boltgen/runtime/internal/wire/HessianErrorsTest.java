package io.boltgen.runtime.internal.wire;

import static org.assertj.core.api.Assertions.assertThat;

import com.alipay.remoting.rpc.exception.RpcServerException;
import com.caucho.hessian.io.Hessian2Input;
import com.caucho.hessian.io.Hessian2Output;
import com.caucho.hessian.io.SerializerFactory;
import io.boltgen.hessian.HessianReader;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The Hessian subset that carries server errors, checked against SOFABolt's own serializer
 * (sofa-hessian 3.5.3, on the test class path through SOFABolt): it reads what we write, and we read
 * what it writes.
 */
class HessianErrorsTest {

  private static final SerializerFactory FACTORY = new SerializerFactory();

  private static byte[] ours(String message) {
    ByteBuf buf = Unpooled.buffer();
    try {
      HessianErrors.SERVER_EXCEPTION.write(message, buf);
      assertThat(buf.readableBytes()).isEqualTo(HessianErrors.SERVER_EXCEPTION.encodedSize(message));
      return ByteBufUtil.getBytes(buf);
    } finally {
      buf.release();
    }
  }

  private static Object sofaReads(byte[] bytes) throws IOException {
    Hessian2Input in = new Hessian2Input(new ByteArrayInputStream(bytes));
    in.setSerializerFactory(FACTORY);
    return in.readObject();
  }

  private static byte[] sofaWrites(Object value) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    Hessian2Output out = new Hessian2Output(bytes);
    out.setSerializerFactory(FACTORY);
    out.writeObject(value);
    out.flush();
    return bytes.toByteArray();
  }

  private static HessianReader.RemoteThrowable weRead(byte[] bytes) {
    ByteBuf buf = Unpooled.wrappedBuffer(bytes);
    try {
      return HessianErrors.readThrowable(buf);
    } finally {
      buf.release();
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 5, 31, 32, 1023, 1024, 5000})
  void sofaHessianReadsTheRpcServerExceptionWeWrite(int length) throws IOException {
    String message = "[Server]OriginErrorMsg: x.Boom: " + "m".repeat(length) + " \u00e9\u4e2d\ud83d\ude00. AdditionalErrorMsg: y";
    Object read = sofaReads(ours(message));
    assertThat(read).isInstanceOf(RpcServerException.class);
    assertThat(((RpcServerException) read).getMessage()).isEqualTo(message);
    assertThat(weRead(ours(message))).isEqualTo(new HessianReader.RemoteThrowable(HessianErrors.RPC_SERVER_EXCEPTION, message));
  }

  @Test
  void aNullMessageStaysNull() throws IOException {
    assertThat(((RpcServerException) sofaReads(ours(null))).getMessage()).isNull();
  }

  @Test
  void weReadTheRpcServerExceptionSofaBoltWritesStackTraceAndAll() throws IOException {
    RpcServerException thrown = new RpcServerException(
        "[Server]OriginErrorMsg: java.lang.IllegalStateException: boom. AdditionalErrorMsg: SYNC process failed");
    assertThat(thrown.getStackTrace()).isNotEmpty();
    HessianReader.RemoteThrowable read = weRead(sofaWrites(thrown));
    assertThat(read.className()).isEqualTo(HessianErrors.RPC_SERVER_EXCEPTION);
    assertThat(read.message()).isEqualTo(thrown.getMessage());
  }

  @Test
  void weReadOtherThrowablesWithCausesToo() throws IOException {
    IllegalStateException thrown = new IllegalStateException("outer", new IllegalArgumentException("inner"));
    HessianReader.RemoteThrowable read = weRead(sofaWrites(thrown));
    assertThat(read.className()).isEqualTo("java.lang.IllegalStateException");
    assertThat(read.message()).isEqualTo("outer");
  }

  @Test
  void whatWasReadBeforeTheRestWentWrongIsKept() throws IOException {
    byte[] whole = sofaWrites(new IllegalStateException("outer", new IllegalArgumentException("inner")));
    assertThat(weRead(Arrays.copyOf(whole, whole.length - 3)))
        .isEqualTo(new HessianReader.RemoteThrowable("java.lang.IllegalStateException", "outer"));
  }

  @Test
  void garbageGivesNull() {
    assertThat(weRead(new byte[] {0x05, 'h', 'e', 'l', 'l', 'o'})).isNull();
    assertThat(weRead(new byte[] {'O'})).isNull();
  }
}
