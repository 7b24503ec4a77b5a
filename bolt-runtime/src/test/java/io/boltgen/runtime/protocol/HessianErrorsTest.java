package io.boltgen.runtime.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

/** The Hessian2 subset that carries server errors to and from SOFABolt peers. */
class HessianErrorsTest {

  @Test
  void writesAnRpcServerExceptionWeCanReadBack() {
    String message = "[Server]OriginErrorMsg: java.lang.IllegalStateException: boom \u00e9\u4e2d\ud83d\ude00. AdditionalErrorMsg: x";
    ByteBuf buf = Unpooled.buffer();
    try {
      HessianErrors.SERVER_EXCEPTION.write(message, buf);
      assertThat(buf.readableBytes()).isEqualTo(HessianErrors.SERVER_EXCEPTION.encodedSize(message));
      HessianErrors.RemoteThrowable read = HessianErrors.readThrowable(buf);
      assertThat(read.className()).isEqualTo(HessianErrors.RPC_SERVER_EXCEPTION);
      assertThat(read.message()).isEqualTo(message);
    } finally {
      buf.release();
    }
  }

  @Test
  void longMessagesUseTheTwoByteAndChunkForms() {
    for (int length : new int[] {0, 31, 32, 1023, 1024, 5000}) {
      String message = "m".repeat(length);
      ByteBuf buf = Unpooled.buffer();
      try {
        HessianErrors.SERVER_EXCEPTION.write(message, buf);
        assertThat(buf.readableBytes()).isEqualTo(HessianErrors.SERVER_EXCEPTION.encodedSize(message));
        assertThat(HessianErrors.readThrowable(buf).message()).isEqualTo(message);
      } finally {
        buf.release();
      }
    }
  }

  @Test
  void skipsOtherFieldsOfAThrowable() {
    // class def with fields [cause, stackTrace, detailMessage]: a self reference, a typed list of one
    // object of a second class def (strings, an int, a null), then the message
    ByteBuf buf = Unpooled.buffer();
    try {
      buf.writeByte('C');
      HessianErrors.writeString("x.Boom", buf);
      buf.writeByte(0x90 + 3);
      HessianErrors.writeString("cause", buf);
      HessianErrors.writeString("stackTrace", buf);
      HessianErrors.writeString("detailMessage", buf);
      buf.writeByte(0x60); // object of class 0
      buf.writeByte('Q').writeByte(0x90); // cause: reference to object 0
      buf.writeByte(0x71); // typed fixed list of length 1
      HessianErrors.writeString("[java.lang.StackTraceElement", buf);
      buf.writeByte('C');
      HessianErrors.writeString("java.lang.StackTraceElement", buf);
      buf.writeByte(0x90 + 3);
      HessianErrors.writeString("declaringClass", buf);
      HessianErrors.writeString("lineNumber", buf);
      HessianErrors.writeString("fileName", buf);
      buf.writeByte(0x61); // object of class 1
      HessianErrors.writeString("x.Boom", buf);
      buf.writeByte(0xc8 + 1).writeByte(0x2c); // two-octet int 300
      buf.writeByte('N');
      HessianErrors.writeString("kaboom", buf);
      HessianErrors.RemoteThrowable read = HessianErrors.readThrowable(buf);
      assertThat(read.className()).isEqualTo("x.Boom");
      assertThat(read.message()).isEqualTo("kaboom");
    } finally {
      buf.release();
    }
  }

  @Test
  void garbageGivesNull() {
    ByteBuf buf = Unpooled.wrappedBuffer(new byte[] {0x05, 'h', 'e', 'l', 'l', 'o'});
    try {
      assertThat(HessianErrors.readThrowable(buf)).isNull();
    } finally {
      buf.release();
    }
  }
}
