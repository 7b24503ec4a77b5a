package io.boltgen.sofarpc.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.boltgen.runtime.BoltChannel;
import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.CallOptions;
import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.BoltServer;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.sofarpc.SofaRpc;
import io.boltgen.sofarpc.it.hessian.GreetService;
import io.boltgen.sofarpc.it.hessian.GreetServiceAsync;
import io.boltgen.sofarpc.it.hessian.GreetServiceAsyncBolt;
import io.boltgen.sofarpc.it.hessian.GreetServiceBolt;
import io.boltgen.sofarpc.it.hessian.GreetServiceImpl;
import io.boltgen.sofarpc.it.hessian.GreetingRefused;
import io.boltgen.sofarpc.it.proto.EchoRefusedException;
import io.boltgen.sofarpc.it.proto.EchoReply;
import io.boltgen.sofarpc.it.proto.EchoRequest;
import io.boltgen.sofarpc.it.proto.EchoService;
import io.boltgen.sofarpc.it.proto.EchoServiceBolt;
import io.boltgen.sofarpc.it.proto.EchoServiceImpl;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A generated client and a generated server both in SOFARPC's dialect: what a team has once both sides moved to
 * boltgen and still speak SOFARPC's wire (declared exceptions keep their class even over protobuf).
 */
@Timeout(60)
class BoltToBoltSofaRpcTest {

  private static BoltServer server;
  private static BoltClient client;

  @BeforeAll
  static void start() {
    server = BoltServer.builder().bind("127.0.0.1", 0)
        .service(GreetServiceBolt.bind(new GreetServiceImpl("bolt-1")))
        .service(EchoServiceBolt.bind(new EchoServiceImpl("bolt-1")))
        .build().start();
    client = BoltClient.builder().build();
  }

  @AfterAll
  static void stop() {
    client.close();
    server.close();
  }

  private static String address() {
    return "127.0.0.1:" + server.port();
  }

  @Test
  void hessianCallsAndDeclaredException() {
    GreetService greet = GreetServiceBolt.newClient(client, address());
    Greetings.assertGreeted(greet.greet(Greetings.full()), Greetings.full());
    assertThat(greet.join("a", 7)).isEqualTo("a:7");
    assertThat(greet.whoami()).isEqualTo("bolt-1");
    assertThatThrownBy(() -> greet.refuse("no way")).isInstanceOfSatisfying(GreetingRefused.class, e -> {
      assertThat(e).hasMessage("refused: no way");
      assertThat(e.code()).isEqualTo(409);
      assertThat(e.reason()).isEqualTo("customer no way is blocked");
    });
  }

  @Test
  void anUnknownServiceIsAnsweredAsSofaRpcsProviderAnswersIt() {
    // the service's interface under a uniqueId nobody serves: a successful frame whose SofaResponse (Hessian2)
    // or error header and text (protobuf) carry SOFARPC's own words, which a SOFARPC consumer shows as they are
    assertThat(unknownService(GreetServiceBolt.METHOD_WHOAMI, new GreetServiceBolt.WhoamiRequest()))
        .isEqualTo("the SOFARPC provider failed: RPC-020100010: RPC cannot find service: "
            + "[com.example.sofa.hessian.GreetService:1.0:absent] ");
    assertThat(unknownService(EchoServiceBolt.METHOD_ECHO, new EchoServiceBolt.EchoRequest(new EchoRequest("x", 1))))
        .isEqualTo("the SOFARPC provider answered with a failure: RPC-020100010: RPC cannot find service: "
            + "[com.example.sofa.proto.EchoService:1.0:absent] ");
  }

  /** What calling {@code typed} of a service under the uniqueId "absent" fails with (its message, unplaced). */
  private static <Q, R> String unknownService(MethodDescriptor<Q, R> typed, Q request) {
    Map<String, String> headers = new LinkedHashMap<>(typed.requestHeaders());
    headers.put(SofaRpc.TARGET_SERVICE, headers.get(SofaRpc.TARGET_SERVICE) + ":absent");
    MethodDescriptor<Q, R> absent = MethodDescriptor.newBuilder(typed.requestMarshaller(), typed.responseMarshaller())
        .serviceName(typed.serviceName())
        .serviceVersion(typed.serviceVersion())
        .methodName(typed.methodName())
        .wireName(typed.wireName())
        .responseClassName(typed.responseClassName())
        .requestHeaders(headers)
        .routingHeaders(typed.routingHeaders())
        .build();
    BoltChannel channel = client.channel(address(), SofaRpc.WIRE_PROTOCOL);
    Throwable failure = catchThrowable(() -> channel.invokeSync(absent, request, CallOptions.DEFAULT));
    assertThat(failure).isInstanceOfSatisfying(BoltException.class, e -> {
      assertThat(e.status()).isEqualTo(ResponseStatus.SERVER_EXCEPTION);
      assertThat(e.remoteClassName()).isNull();
    });
    String message = failure.getMessage();
    return message.substring(0, message.lastIndexOf(" (")); // without where it came from
  }

  @Test
  void hessianUnknownMethodIsRefusedNamingIt() {
    GreetServiceAsync async = GreetServiceAsyncBolt.newClient(client, address());
    assertThatThrownBy(() -> async.missing("x")).isInstanceOfSatisfying(BoltException.class, e -> {
      assertThat(e.status()).isEqualTo(ResponseStatus.SERVER_DESERIAL_EXCEPTION);
      assertThat(e.getMessage()).contains("com.example.sofa.hessian.GreetService:1.0, method missing");
    });
  }

  @Test
  void protobufCallsAndDeclaredException() {
    EchoService echo = EchoServiceBolt.newClient(client, address());
    assertThat(echo.echo(new EchoRequest("ab", 2))).isEqualTo(new EchoReply("abab", 4, "bolt-1"));
    assertThat(echo.echo(new EchoRequest(null, 0))).isEqualTo(new EchoReply("", 0, "bolt-1"));
    assertThatThrownBy(() -> echo.refuse(new EchoRequest("no", 0))).isInstanceOf(EchoRefusedException.class)
        .hasMessage("refused: no");
  }
}
