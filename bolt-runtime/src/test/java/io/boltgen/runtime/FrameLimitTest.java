package io.boltgen.runtime;

import static io.boltgen.runtime.EchoService.AMPLIFY;
import static io.boltgen.runtime.EchoService.ECHO;
import static io.boltgen.runtime.EchoService.SLOW;
import static io.boltgen.runtime.EchoService.bytes;
import static io.boltgen.runtime.EchoService.string;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.boltgen.runtime.codec.Marshaller;
import io.boltgen.testing.Closer;
import io.netty.buffer.ByteBuf;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Frames the peer would refuse, and values no codec can write: each fails its own call at once, saying
 * why, and every other call on the connection goes on.
 */
class FrameLimitTest {

  private final Closer closer = new Closer();
  private final EchoService echo = new EchoService();

  @AfterEach
  void stop() throws Exception {
    echo.release.countDown();
    closer.close();
  }

  @Test
  void anOversizedRequestFailsAloneBeforeItIsWritten() throws Exception {
    int limit = 1024 * 1024;
    BoltServer server = closer.track(BoltServer.builder().bind("127.0.0.1", 0).maxFrameLength(limit)
        .service(echo.definition()).build().start());
    BoltClient client = closer.track(BoltClient.builder().peerMaxFrameLength(limit).build());
    InetSocketAddress address = new InetSocketAddress("127.0.0.1", server.port());
    BoltChannel channel = client.channel(address);
    echo.release = new CountDownLatch(1);
    CompletableFuture<byte[]> inFlight = channel.invokeFuture(SLOW, bytes("in flight"), CallOptions.DEFAULT);
    await().atMost(Duration.ofSeconds(10)).until(() -> echo.slowStarted.get() == 1);
    Connection connection = client.connections(address).get(0);

    long start = System.nanoTime();
    assertThatThrownBy(() -> channel.invokeSync(ECHO, new byte[2 * limit], CallOptions.DEFAULT))
        .isInstanceOfSatisfying(BoltException.class, e -> {
          assertThat(e.status()).isEqualTo(ResponseStatus.CODEC_EXCEPTION);
          assertThat(e.getMessage()).contains("1048576-byte limit").contains("peerMaxFrameLength")
              .contains("not sent");
        });
    assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).as("refusal, ms").isLessThan(1_000);

    echo.release.countDown();
    assertThat(string(inFlight.get(10, TimeUnit.SECONDS))).isEqualTo("in flight");
    assertThat(string(channel.invokeSync(ECHO, bytes("after"), CallOptions.DEFAULT))).isEqualTo("after");
    assertThat(client.connections(address)).containsExactly(connection);
  }

  @Test
  void aTwentyMegabyteArgumentFailsAloneUnderTheDefaultLimits() {
    BoltServer server = closer.track(BoltServer.builder().bind("127.0.0.1", 0).service(echo.definition()).build().start());
    BoltClient client = closer.track(BoltClient.builder().build());
    BoltChannel channel = client.channel("127.0.0.1:" + server.port());
    assertThat(string(channel.invokeSync(ECHO, bytes("before"), CallOptions.DEFAULT))).isEqualTo("before");
    assertThatThrownBy(() -> channel.invokeSync(ECHO, new byte[20 * 1024 * 1024], CallOptions.DEFAULT))
        .isInstanceOfSatisfying(BoltException.class, e -> {
          assertThat(e.status()).isEqualTo(ResponseStatus.CODEC_EXCEPTION);
          assertThat(e.getMessage()).contains("16777216-byte limit");
        });
    assertThat(string(channel.invokeSync(ECHO, bytes("after"), CallOptions.DEFAULT))).isEqualTo("after");
    assertThat(server.connections()).hasSize(1);
  }

  @Test
  void anAnswerLargerThanTheClientAcceptsFailsAlone() {
    BoltServer server = closer.track(BoltServer.builder().bind("127.0.0.1", 0).peerMaxFrameLength(64 * 1024)
        .service(echo.definition()).build().start());
    BoltClient client = closer.track(BoltClient.builder().build());
    BoltChannel channel = client.channel("127.0.0.1:" + server.port());
    assertThatThrownBy(() -> channel.invokeSync(AMPLIFY, ByteBuffer.allocate(4).putInt(100 * 1024).array(),
        CallOptions.DEFAULT))
        .isInstanceOfSatisfying(BoltException.class, e -> {
          assertThat(e.status()).isEqualTo(ResponseStatus.SERVER_SERIAL_EXCEPTION);
          assertThat(e.remoteMessage()).contains("65536-byte limit of the client");
        });
    assertThat(channel.invokeSync(AMPLIFY, ByteBuffer.allocate(4).putInt(1000).array(), CallOptions.DEFAULT))
        .hasSize(1000);
    assertThat(server.connections()).hasSize(1);
  }

  /** A marshaller of raw bytes whose size pass blows the stack for the value "poison". */
  private static final class PoisonableMarshaller implements Marshaller<byte[]> {
    @Override
    public byte codecId() {
      return Marshaller.PROTOBUF;
    }

    @Override
    public int encodedSize(byte[] value) {
      if (string(value).equals("poison")) {
        throw new StackOverflowError();
      }
      return value.length;
    }

    @Override
    public void write(byte[] value, ByteBuf out) {
      out.writeBytes(value);
    }

    @Override
    public byte[] read(ByteBuf in) {
      byte[] bytes = new byte[in.readableBytes()];
      in.readBytes(bytes);
      return bytes;
    }
  }

  @Test
  void aCodecThatOverflowsTheStackFailsOnlyItsOwnCallOnEitherSide() {
    Marshaller<byte[]> poisonable = new PoisonableMarshaller();
    MethodDescriptor<byte[], byte[]> poisoned = MethodDescriptor.newBuilder(poisonable, poisonable)
        .serviceName("test.Poison").serviceVersion("1.0").methodName("echo").methodCode(1)
        .type(MethodType.REQUEST_RESPONSE).build();
    MethodDescriptor<byte[], byte[]> answersPoison = MethodDescriptor.newBuilder(EchoService.RAW, poisonable)
        .serviceName("test.Poison").serviceVersion("1.0").methodName("answer").methodCode(2)
        .type(MethodType.REQUEST_RESPONSE).build();
    BoltServer server = closer.track(BoltServer.builder().bind("127.0.0.1", 0)
        .service(ServiceDefinition.builder("test.Poison", "1.0")
            .method(poisoned, (request, call) -> call.respond(request))
            .method(answersPoison, (request, call) -> call.respond(request))
            .build())
        .build().start());
    BoltClient client = closer.track(BoltClient.builder().build());
    BoltChannel channel = client.channel("127.0.0.1:" + server.port());
    assertThat(string(channel.invokeSync(poisoned, bytes("fine"), CallOptions.DEFAULT))).isEqualTo("fine");

    // the client cannot encode its request: CODEC_EXCEPTION, nothing sent
    assertThatThrownBy(() -> channel.invokeSync(poisoned, bytes("poison"), CallOptions.DEFAULT))
        .isInstanceOfSatisfying(BoltException.class,
            e -> assertThat(e.status()).isEqualTo(ResponseStatus.CODEC_EXCEPTION));
    // the server cannot encode its answer (on its IO thread): SERVER_SERIAL_EXCEPTION, the queue goes on
    long start = System.nanoTime();
    assertThatThrownBy(() -> channel.invokeSync(answersPoison, bytes("poison"), CallOptions.DEFAULT))
        .isInstanceOfSatisfying(BoltException.class, e -> {
          assertThat(e.status()).isEqualTo(ResponseStatus.SERVER_SERIAL_EXCEPTION);
          assertThat(e.remoteClassName()).isEqualTo(StackOverflowError.class.getName());
        });
    assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).as("failed call, ms").isLessThan(1_000);
    assertThat(string(channel.invokeSync(answersPoison, bytes("next"), CallOptions.DEFAULT))).isEqualTo("next");
    assertThat(server.connections()).hasSize(1);
  }
}
