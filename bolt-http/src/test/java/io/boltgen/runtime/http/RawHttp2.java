package io.boltgen.runtime.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersEncoder;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersEncoder;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * An HTTP/2 client that writes frames byte by byte, as an attacker's would: the preface, then whatever frames
 * it is told to send, in any order and in any number, with no flow control of its own. It reads the server's
 * frames one at a time, every read bounded by SO_TIMEOUT. Header blocks are HPACK-encoded with Netty's
 * encoder (plain literals; the attacks here are about frames, not compression).
 */
final class RawHttp2 implements AutoCloseable {

  static final int DATA = 0x0;
  static final int HEADERS = 0x1;
  static final int RST_STREAM = 0x3;
  static final int SETTINGS = 0x4;
  static final int GOAWAY = 0x7;
  static final int WINDOW_UPDATE = 0x8;
  static final int CONTINUATION = 0x9;

  static final int END_STREAM = 0x1;
  static final int ACK = 0x1;
  static final int END_HEADERS = 0x4;

  /** The error codes of RFC 9113, section 7, that the tests name. */
  static final long REFUSED_STREAM = 0x7;
  static final long CANCEL = 0x8;
  static final long ENHANCE_YOUR_CALM = 0xb;

  private static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

  /** One frame as read: its header's fields and its payload (never changed once read). */
  @SuppressWarnings("ArrayRecordComponent") // a frame is read once and never compared
  record Frame(int type, int flags, int stream, byte[] payload) {
    /** A GOAWAY's or RST_STREAM's error code. */
    long errorCode() {
      ByteBuffer b = ByteBuffer.wrap(payload);
      return Integer.toUnsignedLong(b.getInt(type == GOAWAY ? 4 : 0));
    }

    /** A GOAWAY's debug data, as text. */
    String debugData() {
      return type == GOAWAY ? new String(payload, 8, payload.length - 8, StandardCharsets.UTF_8) : "";
    }
  }

  private final Socket socket;
  private final DataInputStream in;
  private final OutputStream out;
  private final Http2HeadersEncoder encoder = new DefaultHttp2HeadersEncoder();

  private RawHttp2(Socket socket) throws IOException {
    this.socket = socket;
    this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
    this.out = new BufferedOutputStream(socket.getOutputStream(), 64 * 1024);
  }

  /**
   * Connects to the loopback port and sends the preface and a SETTINGS frame announcing
   * {@code initialWindowSize} (the flow-control window of each stream the server answers on; 65,535 when
   * negative), with a receive buffer of {@code receiveBuffer} bytes (0: the default).
   */
  static RawHttp2 connect(int port, int receiveBuffer, int initialWindowSize) throws IOException {
    Socket socket = new Socket();
    try {
      if (receiveBuffer > 0) {
        socket.setReceiveBufferSize(receiveBuffer);
      }
      socket.setSoTimeout((int) RawHttp.READ_TIMEOUT.toMillis());
      socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
      RawHttp2 client = new RawHttp2(socket);
      client.out.write(PREFACE);
      byte[] settings = initialWindowSize < 0 ? new byte[0]
          : ByteBuffer.allocate(6).putShort((short) 0x4).putInt(initialWindowSize).array();
      client.frame(SETTINGS, 0, 0, settings);
      client.flush();
      return client;
    } catch (IOException | RuntimeException e) {
      socket.close();
      throw e;
    }
  }

  /** Connects with the defaults: the default receive buffer and window. */
  static RawHttp2 connect(int port) throws IOException {
    return connect(port, 0, -1);
  }

  /** Buffers one frame; {@link #flush} sends what is buffered. */
  RawHttp2 frame(int type, int flags, int stream, byte[] payload) throws IOException {
    out.write(payload.length >>> 16);
    out.write(payload.length >>> 8);
    out.write(payload.length);
    out.write(type);
    out.write(flags);
    out.write(ByteBuffer.allocate(4).putInt(stream & 0x7fffffff).array());
    out.write(payload);
    return this;
  }

  RawHttp2 flush() throws IOException {
    out.flush();
    return this;
  }

  /** The HPACK block of a POST's headers: {@code path}, {@code contentType}, then name/value pairs. */
  byte[] postHeaders(String path, String contentType, String... extra) {
    Http2Headers headers = new DefaultHttp2Headers()
        .method("POST").scheme("http").authority("127.0.0.1").path(path)
        .set("content-type", contentType);
    for (int i = 0; i + 1 < extra.length; i += 2) {
      headers.add(extra[i], extra[i + 1]);
    }
    ByteBuf block = Unpooled.buffer();
    try {
      encoder.encodeHeaders(0, headers, block);
      return ByteBufUtil.getBytes(block);
    } catch (Http2Exception e) {
      throw new IllegalStateException(e);
    } finally {
      block.release();
    }
  }

  /** Buffers a whole unary request on {@code stream}: HEADERS, then one DATA frame that ends the stream. */
  RawHttp2 post(int stream, String path, String contentType, byte[] body, String... extra) throws IOException {
    frame(HEADERS, END_HEADERS, stream, postHeaders(path, contentType, extra));
    return frame(DATA, END_STREAM, stream, body);
  }

  /** Buffers an RST_STREAM of {@code stream} with {@code errorCode}. */
  RawHttp2 reset(int stream, long errorCode) throws IOException {
    return frame(RST_STREAM, 0, stream, ByteBuffer.allocate(4).putInt((int) errorCode).array());
  }

  /** Buffers a WINDOW_UPDATE of {@code stream} (0: the connection) by {@code increment}. */
  RawHttp2 windowUpdate(int stream, int increment) throws IOException {
    return frame(WINDOW_UPDATE, 0, stream, ByteBuffer.allocate(4).putInt(increment).array());
  }

  /** The next frame the server sent; null once the server closed the connection (or reset it). */
  Frame read() throws IOException {
    byte[] header = new byte[9];
    try {
      in.readFully(header);
    } catch (EOFException | SocketException e) {
      return null;
    }
    int length = ((header[0] & 0xff) << 16) | ((header[1] & 0xff) << 8) | (header[2] & 0xff);
    byte[] payload = new byte[length];
    try {
      in.readFully(payload);
    } catch (EOFException | SocketException e) {
      return null;
    }
    int stream = ByteBuffer.wrap(header, 5, 4).getInt() & 0x7fffffff;
    return new Frame(header[3] & 0xff, header[4] & 0xff, stream, payload);
  }

  /**
   * Reads (and drops) frames until a GOAWAY; null if the connection closed first. Fails if nothing arrives
   * within {@code bound}.
   */
  Frame goAway(Duration bound) throws IOException {
    long end = System.nanoTime() + bound.toNanos();
    while (System.nanoTime() < end) {
      Frame f = read();
      if (f == null || f.type() == GOAWAY) {
        return f;
      }
    }
    throw new AssertionError("no GOAWAY and no close within " + bound);
  }

  /** Whether the server closed the connection within {@code bound}, frames before the close read and dropped. */
  boolean closedWithin(Duration bound) throws IOException {
    long end = System.nanoTime() + bound.toNanos();
    while (System.nanoTime() < end) {
      if (read() == null) {
        return true;
      }
    }
    return false;
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
