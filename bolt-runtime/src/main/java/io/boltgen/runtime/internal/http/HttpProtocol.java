package io.boltgen.runtime.internal.http;

import io.boltgen.runtime.ServiceDescriptor;
import io.boltgen.runtime.call.ServerCalls;
import io.boltgen.runtime.internal.PortProtocol;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelPipeline;
import java.util.List;

/**
 * HTTP/1.1 and HTTP/2 with Connect's unary protocol as the port protocol of a server that serves HTTP: each
 * accepted connection gets a {@link ProtocolSniffer}, which hands the connections whose first bytes are HTTP to
 * {@link HttpPipelines}; a connection refused beyond the server's limit gets an {@link HttpRefusal}. Found by
 * {@link java.util.ServiceLoader} (its only public type; not API).
 *
 * <p>Thread-safe: immutable.
 */
public final class HttpProtocol implements PortProtocol.Factory {

  /** For {@link java.util.ServiceLoader}. */
  public HttpProtocol() {}

  @Override
  public PortProtocol create(ServerCalls calls, List<ServiceDescriptor> services, boolean console, int maxBodyBytes,
      long frameTimeoutMillis) {
    return new Port(new HttpPipelines(new ConnectService(calls, new HttpResources(services, console)), maxBodyBytes,
        frameTimeoutMillis), frameTimeoutMillis);
  }

  /** One server's HTTP. */
  private static final class Port implements PortProtocol {
    private final HttpPipelines pipelines;
    private final long frameTimeoutMillis;

    Port(HttpPipelines pipelines, long frameTimeoutMillis) {
      this.pipelines = pipelines;
      this.frameTimeoutMillis = frameTimeoutMillis;
    }

    @Override
    public void join(ChannelPipeline pipeline) {
      pipeline.addBefore("decoder", "protocol", new ProtocolSniffer(pipelines, frameTimeoutMillis));
    }

    @Override
    public ChannelHandler refusal(String why) {
      return new HttpRefusal(why);
    }
  }
}
