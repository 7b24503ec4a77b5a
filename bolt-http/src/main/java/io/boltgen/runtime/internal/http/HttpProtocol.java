package io.boltgen.runtime.internal.http;

import io.boltgen.runtime.ServiceDefinition;
import io.boltgen.runtime.ServiceDescriptor;
import io.boltgen.runtime.call.ServerCalls;
import io.boltgen.runtime.internal.Channels;
import io.boltgen.runtime.internal.PortProtocol;
import io.boltgen.runtime.support.MessageText;
import io.boltgen.runtime.support.RateLimitedLog;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2Exception;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.concurrent.TimeUnit;
import org.slf4j.LoggerFactory;

/**
 * HTTP/1.1 and HTTP/2 with Connect's unary protocol as the port protocol of a server that serves HTTP: each
 * accepted connection gets a {@link ProtocolSniffer}, which hands the connections whose first bytes are HTTP to
 * {@link HttpPipelines}; a connection refused beyond the server's limit gets an {@link HttpRefusal}. Found by
 * {@link java.util.ServiceLoader} (its only public type; not API).
 *
 * <p>Thread-safe: immutable.
 */
public final class HttpProtocol implements PortProtocol.Factory {

  /** How long Netty's HTTP/2 codec has to write its GOAWAY after a connection error before the close. */
  static final long GOAWAY_GRACE_MILLIS = 1_000;

  private static final RateLimitedLog http2Errors = RateLimitedLog.of(LoggerFactory.getLogger(HttpProtocol.class));

  /** For {@link java.util.ServiceLoader}. */
  public HttpProtocol() {}

  /** The services the protocols of HTTP/2 streams add (gRPC's server reflection). */
  @Override
  public List<ServiceDefinition> services(List<ServiceDescriptor> served) {
    List<ServiceDefinition> services = new ArrayList<>();
    for (Http2StreamProtocol.Factory factory
        : ServiceLoader.load(Http2StreamProtocol.Factory.class, HttpProtocol.class.getClassLoader())) {
      services.addAll(factory.services(served));
    }
    return services;
  }

  @Override
  public PortProtocol create(ServerCalls calls, List<ServiceDescriptor> services, boolean console, int maxBodyBytes,
      long frameTimeoutMillis, List<String> corsOrigins) {
    List<Http2StreamProtocol> streamProtocols = new ArrayList<>();
    for (Http2StreamProtocol.Factory factory
        : ServiceLoader.load(Http2StreamProtocol.Factory.class, HttpProtocol.class.getClassLoader())) {
      streamProtocols.add(factory.create(calls, maxBodyBytes, frameTimeoutMillis));
    }
    List<HttpCallProtocol> callProtocols = new ArrayList<>();
    for (HttpCallProtocol.Factory factory
        : ServiceLoader.load(HttpCallProtocol.Factory.class, HttpProtocol.class.getClassLoader())) {
      callProtocols.add(factory.create(calls, maxBodyBytes));
    }
    return new Port(new HttpPipelines(new ConnectRpcCalls(calls, new HttpResources(services, console), callProtocols,
        HttpCors.of(corsOrigins), maxBodyBytes),
        streamProtocols, maxBodyBytes, frameTimeoutMillis), frameTimeoutMillis);
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

    /**
     * An HTTP/2 connection error (a flood of CONTINUATION or RST_STREAM frames, a header block over the limit, a
     * broken frame): Netty's codec tells of it before it writes its GOAWAY, with the code it chose, and then
     * closes. One line; and a close {@value #GOAWAY_GRACE_MILLIS} ms later in case the GOAWAY cannot be written
     * (a peer that does not read).
     */
    @Override
    @SuppressWarnings("FutureReturnValueIgnored") // a close that is no longer needed changes nothing
    public boolean closesItself(ChannelHandlerContext ctx, Throwable error, String remoteText) {
      Http2Exception http2 = Http2CodecUtil.getEmbeddedHttp2Exception(error);
      if (http2 == null) {
        return false;
      }
      http2Errors.warn("closing HTTP/2 connection from {} with GOAWAY {}: {}", remoteText, http2.error(),
          MessageText.shorten(String.valueOf(http2.getMessage())));
      ctx.executor().schedule(() -> Channels.close(ctx), GOAWAY_GRACE_MILLIS, TimeUnit.MILLISECONDS);
      return true;
    }
  }
}
