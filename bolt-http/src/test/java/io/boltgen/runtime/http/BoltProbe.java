package io.boltgen.runtime.http;

import static io.boltgen.runtime.EchoService.ECHO;
import static io.boltgen.runtime.EchoService.bytes;
import static io.boltgen.runtime.EchoService.string;
import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.runtime.BoltChannel;
import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.BoltServer;
import io.boltgen.runtime.CallOptions;
import io.boltgen.runtime.Tls;
import java.time.Duration;

/**
 * A Bolt client of a server that also speaks HTTP: it proves, with an echo that must answer at once, that Bolt
 * still works on the port whatever HTTP went through it.
 */
final class BoltProbe implements AutoCloseable {

  /** "At once": a call that is not answered within this failed. */
  static final CallOptions AT_ONCE = CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(3));

  private final BoltClient client;
  private final BoltChannel channel;

  private BoltProbe(BoltClient client, BoltChannel channel) {
    this.client = client;
    this.channel = channel;
  }

  /** A client connected to {@code server} (over TLS when {@code tls} is not null) that has made one call. */
  static BoltProbe open(BoltServer server, Tls tls) {
    BoltClient.Builder builder = BoltClient.builder();
    if (tls != null) {
      builder.tls(tls);
    }
    BoltClient client = builder.build();
    try {
      BoltProbe probe = new BoltProbe(client, client.channel("127.0.0.1:" + server.port()));
      probe.assertServes("opened");
      return probe;
    } catch (RuntimeException | Error e) {
      client.close();
      throw e;
    }
  }

  static BoltProbe open(BoltServer server) {
    return open(server, null);
  }

  /** Echoes {@code text} over Bolt and requires it back within {@link #AT_ONCE}. */
  void assertServes(String text) {
    assertThat(string(channel.invokeSync(ECHO, bytes(text), AT_ONCE))).isEqualTo(text);
  }

  @Override
  public void close() {
    client.close();
  }
}
