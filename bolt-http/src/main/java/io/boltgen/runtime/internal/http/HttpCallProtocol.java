package io.boltgen.runtime.internal.http;

import io.boltgen.runtime.call.ServerCalls;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaders;

/**
 * A protocol of whole HTTP requests on the Bolt port beside Connect, over HTTP/1.1 and HTTP/2 alike, told apart by a
 * request's headers (gRPC-Web, module {@code bolt-grpc}, by its content type). Found by
 * {@link java.util.ServiceLoader} through its {@link Factory} when a server that serves HTTP is built; a request no
 * such protocol serves is Connect's. Its answers go through the request's {@link HttpCall}, in request order. Not API.
 *
 * <p>Thread-safe: {@link #serves} and {@link #handle} run on IO threads.
 */
public interface HttpCallProtocol {

  /** Whether this protocol serves a request with {@code headers}. */
  boolean serves(HttpHeaders headers);

  /** Answers {@code request}, one this protocol serves (IO thread); the caller releases it afterwards. */
  void handle(HttpCall call, FullHttpRequest request);

  /** Makes a server's protocol, for {@link java.util.ServiceLoader}. */
  interface Factory {

    /** The protocol of a server serving {@code calls}, whose messages may be up to {@code maxMessageBytes} long. */
    HttpCallProtocol create(ServerCalls calls, int maxMessageBytes);
  }
}
