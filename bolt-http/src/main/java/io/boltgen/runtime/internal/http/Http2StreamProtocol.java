package io.boltgen.runtime.internal.http;

import io.boltgen.runtime.ServiceDefinition;
import io.boltgen.runtime.ServiceDescriptor;
import io.boltgen.runtime.call.ServerCalls;
import io.boltgen.runtime.internal.PortConnection;
import io.netty.channel.ChannelHandler;
import io.netty.handler.codec.http2.Http2Headers;
import java.util.List;

/**
 * A protocol carried on HTTP/2 streams of the Bolt port beside Connect, told apart by a stream's request headers
 * (gRPC, module {@code bolt-grpc}, by its content type). Found by {@link java.util.ServiceLoader} through its
 * {@link Factory} when a server that serves HTTP is built; a stream no such protocol serves is Connect's. Not API.
 *
 * <p>Thread-safe: {@link #serves} and {@link #newStream} run on IO threads.
 */
public interface Http2StreamProtocol {

  /** Whether this protocol serves a stream whose request opens with {@code headers}. */
  boolean serves(Http2Headers headers);

  /**
   * The handler of one stream it serves, added last to the stream's child channel; it reads the stream's frames
   * from its headers frame on, and writes its answer there.
   */
  ChannelHandler newStream(PortConnection connection);

  /** Makes a server's protocol, for {@link java.util.ServiceLoader}. */
  interface Factory {

    /**
     * The protocol of a server serving {@code calls}, whose messages may be up to {@code maxMessageBytes} long
     * (the server's maximum frame length), and whose requests must arrive within {@code frameTimeoutMillis} (the
     * server's frame timeout; 0 for none).
     */
    Http2StreamProtocol create(ServerCalls calls, int maxMessageBytes, long frameTimeoutMillis);

    /**
     * The services this protocol adds to a server serving {@code served} (gRPC's server reflection), served
     * through the one server call as the server's own are; none unless overridden. Asked once, before
     * {@link #create}.
     */
    default List<ServiceDefinition> services(List<ServiceDescriptor> served) {
      return List.of();
    }
  }
}
