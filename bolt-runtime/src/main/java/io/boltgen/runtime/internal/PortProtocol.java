package io.boltgen.runtime.internal;

import io.boltgen.runtime.ServiceDefinition;
import io.boltgen.runtime.ServiceDescriptor;
import io.boltgen.runtime.call.ServerCalls;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import java.util.List;

/**
 * A protocol that a server's port speaks beside Bolt, told apart by a connection's first bytes: HTTP/1.1 and
 * HTTP/2 with Connect ({@code io.boltgen.runtime.internal.http}). The core knows such a protocol only through
 * this interface: it asks the protocol to join each accepted connection's pipeline, and to refuse, in its own
 * terms, a connection beyond the server's limit. A connection the protocol takes over is a
 * {@link PortConnection}; its calls go through the one server call ({@link ServerCalls}).
 *
 * <p>Public only for the internal packages that implement it; not API.
 */
public interface PortProtocol {

  /**
   * Joins the pipeline of an accepted connection (IO thread): before the Bolt decoder, named {@code "decoder"},
   * whatever tells this protocol's first bytes apart and then takes the connection over or steps aside.
   */
  void join(ChannelPipeline pipeline);

  /**
   * A handler for the pipeline of a connection refused beyond the server's limit ({@code why} says so), before
   * its Bolt decoder: it answers a first request of this protocol in its own terms and closes the connection,
   * and passes anything else on.
   */
  ChannelHandler refusal(String why);

  /**
   * Whether {@code error}, which reached the end of a connection's pipeline, is a connection error that this
   * protocol's codec answers itself before it closes (HTTP/2: a GOAWAY with the code it chose): then the
   * protocol has logged it (the peer is {@code remoteText}) and sees that the connection closes, and the core
   * leaves the connection alone. Called on the IO thread.
   */
  boolean closesItself(ChannelHandlerContext ctx, Throwable error, String remoteText);

  /** Makes the protocol of one server; found by {@link java.util.ServiceLoader}. */
  interface Factory {

    /**
     * The protocol for a server serving {@code calls} (the methods of {@code services}), with its console
     * when {@code console}; requests of at most {@code maxBodyBytes}, each to arrive within
     * {@code frameTimeoutMillis}; browser pages of {@code corsOrigins} (an origin each, or {@code *}) may call it.
     */
    PortProtocol create(ServerCalls calls, List<ServiceDescriptor> services, boolean console, int maxBodyBytes,
        long frameTimeoutMillis, List<String> corsOrigins);

    /**
     * The services the protocol adds to a server serving {@code served} (such as gRPC's server reflection), which
     * the core serves through the one server call after the server's own, and registers nowhere; none unless
     * overridden. Asked once, before {@link #create}, whose {@code calls} then include them.
     */
    default List<ServiceDefinition> services(List<ServiceDescriptor> served) {
      return List.of();
    }
  }
}
