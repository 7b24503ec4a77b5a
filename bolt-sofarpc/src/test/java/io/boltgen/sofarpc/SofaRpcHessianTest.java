package io.boltgen.sofarpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.codec.FailureMarshaller;
import io.boltgen.runtime.codec.Marshaller;
import io.boltgen.sofarpc.hessian.HessianReader;
import io.boltgen.sofarpc.hessian.HessianWriter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SofaRpcHessianTest {

  record Join(String a, int b) {}

  static final class Refused extends Exception {
    private static final long serialVersionUID = 1L;

    Refused(String message) {
      super(message);
    }
  }

  private static final Marshaller<Join> REQUEST = SofaRpcHessian.request("demo.Greet:1.0", "join", "", "sync", "app",
      List.of("java.lang.String", "int"), (out, q) -> {
        out.writeString(q.a());
        out.writeInt(q.b());
      }, in -> new Join(in.readString(), in.readInt()));

  private static final FailureMarshaller<String> RESPONSE = SofaRpcHessian.response(HessianWriter::writeString,
      HessianReader::readString, null, e -> e instanceof Refused ? "com.example.sofa.hessian.GreetingRefused" : null);

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
  void resultRoundTrips() {
    assertThat(RESPONSE.read(write(RESPONSE, "hello"), Map.of())).isEqualTo("hello");
    assertThat(RESPONSE.read(write(RESPONSE, null), Map.of())).isNull();
  }

  @Test
  void declaredFailureTravelsAsItsRemoteClass() {
    Refused refused = new Refused("refused: no way");
    assertThat(RESPONSE.failureHeaders(refused)).containsEntry(SofaRpc.RESPONSE_ERROR, "true")
        .containsEntry(SofaRpc.ERROR_CLASS, "com.example.sofa.hessian.GreetingRefused");
    ByteBuf buf = writeFailure(refused);
    assertThatThrownBy(() -> RESPONSE.read(buf, Map.of())).isInstanceOfSatisfying(BoltException.class, e -> {
      assertThat(e.status()).isEqualTo(ResponseStatus.SERVER_EXCEPTION);
      assertThat(e.remoteClassName()).isEqualTo("com.example.sofa.hessian.GreetingRefused");
      assertThat(e.remoteMessage()).isEqualTo("refused: no way");
    });
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
