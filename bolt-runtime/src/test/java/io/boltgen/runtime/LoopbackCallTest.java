package io.boltgen.runtime;

import static io.boltgen.runtime.EchoService.ECHO;
import static io.boltgen.runtime.EchoService.FAIL;
import static io.boltgen.runtime.EchoService.SINK;
import static io.boltgen.runtime.EchoService.bytes;
import static io.boltgen.runtime.EchoService.string;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.boltgen.annotation.BoltCallback;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Every call style, our client against our server, in every wire format. */
class LoopbackCallTest {

  private final EchoService echo = new EchoService();
  private BoltServer server;

  @BeforeEach
  void start() {
    server = BoltServer.builder().bind("127.0.0.1", 0).service(echo.definition()).build().start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private BoltClient client(WireProtocol protocol) {
    return BoltClient.builder().protocol(protocol).build();
  }

  @ParameterizedTest
  @EnumSource(WireProtocol.class)
  void syncFutureCallbackAndOneway(WireProtocol protocol) throws Exception {
    try (BoltClient client = client(protocol)) {
      BoltChannel channel = client.channel("127.0.0.1:" + server.port());

      assertThat(string(channel.invokeSync(ECHO, bytes("sync"), CallOptions.DEFAULT))).isEqualTo("sync");

      CompletableFuture<byte[]> future = channel.invokeFuture(ECHO, bytes("future"), CallOptions.DEFAULT);
      assertThat(string(future.get(5, TimeUnit.SECONDS))).isEqualTo("future");

      LinkedBlockingQueue<Object> outcomes = new LinkedBlockingQueue<>();
      channel.invokeCallback(ECHO, bytes("callback"), CallOptions.DEFAULT, new BoltCallback<byte[]>() {
        @Override
        public void onResponse(byte[] result) {
          outcomes.add(string(result) + " on " + Thread.currentThread().getName());
        }

        @Override
        public void onError(Throwable error) {
          outcomes.add(error);
        }
      });
      assertThat(outcomes.poll(5, TimeUnit.SECONDS)).asString().startsWith("callback on boltgen-callback");

      channel.invokeOneway(SINK, bytes("oneway"), CallOptions.DEFAULT);
      assertThat(echo.sunk.poll(5, TimeUnit.SECONDS)).isEqualTo("oneway");
    }
  }

  @ParameterizedTest
  @EnumSource(WireProtocol.class)
  void handlerExceptionReachesTheCallerWithClassAndMessage(WireProtocol protocol) {
    try (BoltClient client = client(protocol)) {
      BoltChannel channel = client.channel("127.0.0.1:" + server.port());
      assertThatThrownBy(() -> channel.invokeSync(FAIL, bytes("x"), CallOptions.DEFAULT))
          .isInstanceOfSatisfying(BoltException.class, e -> {
            assertThat(e.status()).isEqualTo(ResponseStatus.SERVER_EXCEPTION);
            assertThat(e.remoteClassName()).isEqualTo("java.lang.IllegalStateException");
            assertThat(e.remoteMessage()).isEqualTo("boom: x");
            assertThat(e.getMessage()).contains("test.Echo:1.0/fail").contains("boom: x");
          });
    }
  }
}
