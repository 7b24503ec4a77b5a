package io.boltgen.runtime;

import static io.boltgen.runtime.EchoService.ECHO;
import static io.boltgen.runtime.EchoService.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.boltgen.testing.Closer;
import io.boltgen.testing.TestCertificates;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A client refused by a TLS server does not storm it: whichever way the connection ends before the server
 * answered anything on it (a plain client, a TLS 1.3 client certificate refused after the client's handshake, a
 * TLS 1.2 handshake that fails, a TLS client meeting a plain server), the pool backs off as after a failed
 * connect, and calls made meanwhile fail at once instead of each opening a connection. Counted by the
 * connections the server accepted (its connection listener hears every accepted socket, before any handshake).
 */
class ReconnectBackoffTest {

  @TempDir
  static Path certificatesDir;

  private static TestCertificates certs;

  private final Closer closer = new Closer();

  @BeforeAll
  static void makeCertificates() {
    certs = TestCertificates.create(certificatesDir);
  }

  @AfterEach
  void stop() throws Exception {
    closer.close();
  }

  /** Each way a connection to a server ends before the server answered anything on it. */
  enum Refusal {
    /** A client without TLS, a server with: the server closes on the first bytes, which are no TLS record. */
    PLAIN_CLIENT_TO_TLS_SERVER(Tls.ClientAuth.NONE, true) {
      @Override
      Tls clientTls() {
        return null;
      }
    },
    /** TLS 1.3, no client certificate: the client's handshake completes, then the server refuses and closes. */
    TLS13_WITHOUT_CLIENT_CERTIFICATE(Tls.ClientAuth.REQUIRE, true) {
      @Override
      Tls clientTls() {
        return Tls.builder().trust(certs.caPem()).protocols("TLSv1.3").build();
      }
    },
    /** TLS 1.3, a certificate from another CA: refused after the client's handshake, as above. */
    TLS13_UNTRUSTED_CLIENT_CERTIFICATE(Tls.ClientAuth.REQUIRE, true) {
      @Override
      Tls clientTls() {
        TestCertificates.Identity untrusted = certs.untrustedClient();
        return Tls.builder().trust(certs.caPem()).protocols("TLSv1.3")
            .keyPair(untrusted.certificateChainPem(), untrusted.privateKeyPem()).build();
      }
    },
    /** TLS 1.2, no client certificate: the refusal is part of the client's handshake, a failed connect. */
    TLS12_WITHOUT_CLIENT_CERTIFICATE(Tls.ClientAuth.REQUIRE, true) {
      @Override
      Tls clientTls() {
        return Tls.builder().trust(certs.caPem()).protocols("TLSv1.2").build();
      }
    },
    /** A TLS client, a plain server: the server closes on a ClientHello, which is no Bolt frame. */
    TLS_CLIENT_TO_PLAIN_SERVER(Tls.ClientAuth.NONE, false) {
      @Override
      Tls clientTls() {
        return Tls.builder().trust(certs.caPem()).build();
      }
    };

    final Tls.ClientAuth clientAuth;
    final boolean serverTls;

    Refusal(Tls.ClientAuth clientAuth, boolean serverTls) {
      this.clientAuth = clientAuth;
      this.serverTls = serverTls;
    }

    abstract Tls clientTls();
  }

  @ParameterizedTest
  @EnumSource(Refusal.class)
  void callsWhileThePoolBacksOffFailAtOnceWithoutOpeningConnections(Refusal refusal) {
    List<Long> accepted = new CopyOnWriteArrayList<>();
    AtomicInteger closed = new AtomicInteger();
    BoltServer server = server(refusal, accepted, closed);
    // a backoff far longer than the calls take, so that no background attempt falls among them
    BoltClient client = client(refusal.clientTls(), Duration.ofSeconds(30));
    BoltChannel channel = client.channel("127.0.0.1:" + server.port());

    List<BoltException> failures = new ArrayList<>();
    for (int i = 0; i < 15; i++) {
      failures.add(failedCall(channel));
    }

    assertThat(failures.get(0).status()).as("the first call: %s", failures.get(0))
        .isIn(ResponseStatus.ERROR_COMM, ResponseStatus.CONNECTION_CLOSED);
    for (BoltException later : failures.subList(1, failures.size())) {
      assertThat(later.status()).as("a call while the pool backs off: %s", later).isEqualTo(ResponseStatus.ERROR_COMM);
    }
    if (failures.get(0).status() == ResponseStatus.CONNECTION_CLOSED) {
      // the request was written on a connection that then closed: the message says what that usually means
      assertThat(failures.get(0).getMessage()).contains("closed before the peer answered anything on it");
      assertThat(failures.get(1).getMessage()).contains("closed before the peer answered anything on it")
          .contains("no new connection for");
    }
    // connection events arrive in order on a thread of their own: wait until every accepted one was heard closing
    await().atMost(Duration.ofSeconds(10)).until(() -> server.connections().isEmpty() && !accepted.isEmpty()
        && closed.get() == accepted.size());
    assertThat(accepted).as("connections the server accepted for 15 calls").hasSize(1);
    assertThat(client.connections()).isEmpty();
  }

  @Test
  void theBackoffAfterConnectionsClosedBeforeAnAnswerGrowsAsAfterFailedConnects() {
    List<Long> accepted = new CopyOnWriteArrayList<>();
    BoltServer server = server(Refusal.PLAIN_CLIENT_TO_TLS_SERVER, accepted, new AtomicInteger());
    BoltClient client = client(null, Duration.ofMillis(100)); // 100 ms, doubling up to 1 s: the defaults
    BoltChannel channel = client.channel("127.0.0.1:" + server.port());

    AtomicInteger calls = new AtomicInteger();
    // a caller that keeps calling (each call fails): the pool re-makes its connection in the background after
    // each backoff, and the next call closes it again
    await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(10)).until(() -> {
      calls.incrementAndGet();
      failedCall(channel);
      return accepted.size() >= 4;
    });

    long[] backoff = {100, 200, 400};
    for (int i = 0; i < backoff.length; i++) {
      long gap = TimeUnit.NANOSECONDS.toMillis(accepted.get(i + 1) - accepted.get(i));
      // each wait is up to 20% shorter than its backoff, at random; a busy machine only makes it longer (the
      // listener hears of each connection a little after it was accepted: 50 ms of slack for that)
      assertThat(gap).as("wait before connection %d (all: %s)", i + 2, accepted)
          .isGreaterThanOrEqualTo(backoff[i] * 8 / 10 - 50);
    }
    assertThat(calls.get()).as("calls made while the server accepted %d connections", accepted.size())
        .isGreaterThan(accepted.size());
  }

  private BoltServer server(Refusal refusal, List<Long> accepted, AtomicInteger closed) {
    BoltServer.Builder builder = BoltServer.builder().bind("127.0.0.1", 0)
        .service(new EchoService().definition())
        .connectionListener(new ConnectionListener() {
          @Override
          public void onConnect(Connection connection) {
            accepted.add(System.nanoTime());
          }

          @Override
          public void onClose(Connection connection) {
            closed.incrementAndGet();
          }
        });
    if (refusal.serverTls) {
      builder.tls(Tls.builder()
          .keyPair(certs.server().certificateChainPem(), certs.server().privateKeyPem())
          .trust(certs.caPem())
          .clientAuth(refusal.clientAuth)
          .build());
    }
    return closer.track(builder.build().start());
  }

  private BoltClient client(Tls tls, Duration minBackoff) {
    BoltClient.Builder builder = BoltClient.builder()
        .reconnect(true, minBackoff, minBackoff.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1) : minBackoff);
    if (tls != null) {
      builder.tls(tls);
    }
    return closer.track(builder.build());
  }

  private static BoltException failedCall(BoltChannel channel) {
    List<BoltException> failure = new ArrayList<>(1);
    assertThatThrownBy(() -> channel.invokeSync(ECHO, bytes("hello"), CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(10))))
        .isInstanceOfSatisfying(BoltException.class, failure::add);
    return failure.get(0);
  }
}
