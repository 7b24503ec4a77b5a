package io.boltgen.sofarpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.boltgen.hessian.HessianClass;
import io.boltgen.hessian.HessianException;
import io.boltgen.hessian.HessianReader;
import io.boltgen.hessian.HessianType;
import io.boltgen.hessian.HessianWriter;
import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.codec.FailureMarshaller;
import io.boltgen.runtime.codec.Marshaller;
import io.boltgen.runtime.support.MessageText;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SofaRpcHessianTest {

  record Join(String a, int b) {}

  static final class Refused extends Exception {
    private static final long serialVersionUID = 1L;
    private final int code;
    private final String reason;

    Refused(String message, int code, String reason) {
      super(message);
      this.code = code;
      this.reason = reason;
    }
  }

  /** What generated code writes for Refused: sofa-hessian's form of a Throwable with its own fields. */
  private static final HessianType<Refused> REFUSED = new HessianType<>() {
    private final HessianClass hessianClass =
        HessianClass.of("com.example.sofa.hessian.GreetingRefused", "detailMessage", "code", "reason");

    @Override
    public HessianClass hessianClass() {
      return hessianClass;
    }

    @Override
    public void writeFields(HessianWriter out, Refused value) {
      out.writeString(SofaRpcHessian.detailMessage(value));
      out.writeInt(value.code);
      out.writeString(value.reason);
    }

    @Override
    public Refused readFields(HessianReader in, HessianClass sent) {
      String message = null;
      int code = 0;
      String reason = null;
      for (int i = 0; i < sent.fieldCount(); i++) {
        switch (sent.fieldName(i)) {
          case "detailMessage" -> message = in.readString();
          case "code" -> code = in.readInt();
          case "reason" -> reason = in.readString();
          default -> in.skipValue();
        }
      }
      return new Refused(message, code, reason);
    }
  };

  private static final Marshaller<Join> REQUEST = SofaRpcHessian.request("demo.Greet:1.0", "join", "", "sync", "app",
      List.of("java.lang.String", "int"), (out, q) -> {
        out.writeString(q.a());
        out.writeInt(q.b());
      }, in -> new Join(in.readString(), in.readInt()));

  private static final FailureMarshaller<String> RESPONSE = SofaRpcHessian.response(HessianWriter::writeString,
      HessianReader::readString, null, List.of(new SofaRpcHessian.DeclaredException<>(Refused.class, REFUSED)));

  private static <T> ByteBuf write(Marshaller<T> marshaller, T value) {
    int size = marshaller.encodedSize(value);
    ByteBuf buf = Unpooled.buffer(size, size);
    marshaller.write(value, buf);
    assertThat(buf.readableBytes()).isEqualTo(size);
    return buf;
  }

  private static ByteBuf writeFailure(Throwable failure) {
    int size = RESPONSE.failureSize(failure);
    ByteBuf buf = Unpooled.buffer(size, size);
    RESPONSE.writeFailure(failure, buf);
    assertThat(buf.readableBytes()).isEqualTo(size);
    return buf;
  }

  @Test
  void requestRoundTrips() {
    ByteBuf buf = write(REQUEST, new Join("Zoë", 7));
    assertThat(REQUEST.read(buf)).isEqualTo(new Join("Zoë", 7));
  }

  @Test
  void requestForAnotherMethodOrArgumentTypesIsRefused() {
    Marshaller<Join> other = SofaRpcHessian.request("demo.Greet:1.0", "join", "", "sync", "",
        List.of("java.lang.String", "long"), (out, q) -> {
          out.writeString(q.a());
          out.writeInt(q.b());
        }, in -> new Join(in.readString(), in.readInt()));
    ByteBuf buf = write(other, new Join("x", 1));
    assertThatThrownBy(() -> REQUEST.read(buf)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("java.lang.String, long");
  }

  @Test
  void aBodyOfAnotherClassIsRefusedQuotingTheClassThePeerSent() {
    // the reader keeps the peer's text out of its message; the dialect quotes it in, escaped
    ByteBuf request = Unpooled.buffer();
    HessianWriter.to(request).writeThrowable("evil\nClass", "x");
    assertThatThrownBy(() -> REQUEST.read(request)).isInstanceOf(HessianException.class)
        .hasMessageContaining(RequestEnvelope.TYPE.hessianClass().className())
        .hasMessageEndingWith("found one of another class: " + MessageText.quote("evil\nClass"))
        .hasMessageNotContaining("\n");
    ByteBuf answer = Unpooled.buffer();
    HessianWriter.to(answer).writeThrowable("evil\nClass", "x");
    assertThatThrownBy(() -> RESPONSE.read(answer, Map.of())).isInstanceOf(HessianException.class)
        .hasMessageEndingWith(MessageText.quote("evil\nClass"));
  }

  @Test
  void resultRoundTrips() {
    assertThat(RESPONSE.read(write(RESPONSE, "hello"), Map.of())).isEqualTo("hello");
    assertThat(RESPONSE.read(write(RESPONSE, null), Map.of())).isNull();
  }

  @Test
  void declaredFailureTravelsAsItsRemoteClass() {
    Refused refused = new Refused("refused: no way", 409, "customer c-1 is blocked");
    assertThat(RESPONSE.failureHeaders(refused)).containsEntry(SofaRpc.RESPONSE_ERROR, "true")
        .containsEntry(SofaRpc.ERROR_CLASS, "com.example.sofa.hessian.GreetingRefused");
    ByteBuf buf = writeFailure(refused);
    assertThatThrownBy(() -> RESPONSE.read(buf, Map.of())).isInstanceOfSatisfying(BoltException.class, e -> {
      assertThat(e.status()).isEqualTo(ResponseStatus.SERVER_EXCEPTION);
      assertThat(e.remoteClassName()).isEqualTo("com.example.sofa.hessian.GreetingRefused");
      assertThat(e.remoteMessage()).isEqualTo("refused: no way");
      // rebuilt whole, its fields with it
      assertThat(e.remoteException()).isInstanceOfSatisfying(Refused.class, r -> {
        assertThat(r).hasMessage("refused: no way");
        assertThat(r.code).isEqualTo(409);
        assertThat(r.reason).isEqualTo("customer c-1 is blocked");
      });
    });
  }

  @Test
  void aDeclaredFailureIsReadAsAJavaPeerWritesIt() {
    // sofa-hessian's Throwable: the subclass's fields, Throwable's, a cause that is the exception itself (a
    // back-reference), a stack trace and suppressed exceptions, all skipped but the ones it declares
    ByteBuf buf = Unpooled.buffer();
    HessianWriter out = HessianWriter.to(buf);
    HessianClass sofaResponse = HessianClass.of(SofaRpc.RESPONSE_CLASS, "isError", "errorMsg", "appResponse",
        "responseProps");
    out.writeObject(new HessianType<String>() {
      @Override
      public HessianClass hessianClass() {
        return sofaResponse;
      }

      @Override
      public void writeFields(HessianWriter w, String ignored) {
        w.writeBoolean(false);
        w.writeNull();
        w.writeObject(new HessianType<String>() {
          @Override
          public HessianClass hessianClass() {
            return HessianClass.of("com.example.sofa.hessian.GreetingRefused", "code", "reason", "detailMessage",
                "cause", "stackTrace", "suppressedExceptions");
          }

          @Override
          public void writeFields(HessianWriter t, String v) {
            t.writeInt(-7);
            t.writeString("why");
            t.writeString("nope");
            buf.writeByte(0x4a).writeByte(1); // sofa-hessian's reference to object 1, the exception: an unset cause
            t.writeList("[java.lang.StackTraceElement", List.of("frame"), HessianWriter::writeString);
            t.writeList("java.util.Collections$UnmodifiableRandomAccessList", List.<String>of(),
                HessianWriter::writeString);
          }

          @Override
          public String readFields(HessianReader in, HessianClass sent) {
            throw new UnsupportedOperationException();
          }
        }, "x");
        w.writeNull();
      }

      @Override
      public String readFields(HessianReader in, HessianClass sent) {
        throw new UnsupportedOperationException();
      }
    }, "x");
    assertThatThrownBy(() -> RESPONSE.read(buf, Map.of())).isInstanceOfSatisfying(BoltException.class, e ->
        assertThat(e.remoteException()).isInstanceOfSatisfying(Refused.class, r -> {
          assertThat(r).hasMessage("nope");
          assertThat(r.code).isEqualTo(-7);
          assertThat(r.reason).isEqualTo("why");
        }));
  }

  @Test
  void anUndeclaredJdkExceptionIsAnsweredAsItself() {
    // as a SOFARPC provider answers it: the consumer throws it typed
    ByteBuf buf = writeFailure(new IllegalStateException("broken"));
    assertThatThrownBy(() -> RESPONSE.read(buf, Map.of())).isInstanceOfSatisfying(BoltException.class, e -> {
      assertThat(e.status()).isEqualTo(ResponseStatus.SERVER_EXCEPTION);
      assertThat(e.remoteClassName()).isEqualTo("java.lang.IllegalStateException");
      assertThat(e.remoteMessage()).isEqualTo("broken");
    });
  }

  @Test
  void anyOtherFailureIsTheProvidersError() {
    // a class the consumer may not have: named in a provider error instead
    ByteBuf buf = writeFailure(new Unknown("broken"));
    assertThatThrownBy(() -> RESPONSE.read(buf, Map.of())).isInstanceOfSatisfying(BoltException.class, e -> {
      assertThat(e.status()).isEqualTo(ResponseStatus.SERVER_EXCEPTION);
      assertThat(e.remoteClassName()).isNull();
      assertThat(e.remoteMessage()).isEqualTo(Unknown.class.getName() + ": broken");
    });
  }

  /** An exception of this side only. */
  static final class Unknown extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Unknown(String message) {
      super(message);
    }
  }
}
