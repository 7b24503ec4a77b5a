package io.boltgen.runtime.grpc;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersDecoder;
import io.netty.handler.codec.http2.DefaultHttp2HeadersEncoder;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * A gRPC client that writes HTTP/2 frames byte by byte, as a broken or hostile peer's would: the preface and an
 * empty SETTINGS frame, then whatever HEADERS and DATA frames it is told to send, checking nothing itself. It
 * reads the server's frames one at a time, every read bounded by {@link #READ_TIMEOUT}; it acknowledges the
 * server's SETTINGS, gives back the connection window the server's DATA takes, and decodes header blocks with
 * Netty's HPACK decoder (one per connection, as HPACK's dynamic table requires). Its DATA frames heed the
 * connection's flow-control window (it waits for the server's WINDOW_UPDATE frames), not a stream's: a test
 * sends at most 65,535 bytes on a stream. Not thread-safe.
 */
final class RawGrpc implements AutoCloseable {

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
  static final int PADDED = 0x8;
  static final int PRIORITY = 0x20;

  /** The error code of an RST_STREAM that asks the peer to stop sending (RFC 9113, section 8.1). */
  static final long NO_ERROR = 0x0;

  /** The error code of an RST_STREAM that cancels a call (gRPC's cancellation). */
  static final long CANCEL = 0x8;

  /** HTTP/2's default SETTINGS_MAX_FRAME_SIZE: no DATA frame sent is longer. */
  static final int MAX_FRAME_PAYLOAD = 16_384;

  /** Each read of the server's frames waits at most this long. */
  static final Duration READ_TIMEOUT = Duration.ofSeconds(10);

  private static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

  /** One frame as read: its header's fields and its payload (never changed once read). */
  @SuppressWarnings("ArrayRecordComponent") // a frame is read once and never compared
  record Frame(int type, int flags, int stream, byte[] payload) {
    boolean endStream() {
      return (type == HEADERS || type == DATA) && (flags & END_STREAM) != 0;
    }

    /** An RST_STREAM's or GOAWAY's error code. */
    long errorCode() {
      return Integer.toUnsignedLong(ByteBuffer.wrap(payload).getInt(type == GOAWAY ? 4 : 0));
    }

    @Override
    public String toString() {
      return "Frame[type=" + type + ", flags=" + flags + ", stream=" + stream + ", " + payload.length + " bytes]";
    }
  }

  /**
   * What the server sent on one stream, up to and including the frame that ended it (END_STREAM, or an
   * RST_STREAM): its frames in order, and its header blocks decoded.
   */
  record Answer(List<Frame> frames, List<Http2Headers> headerBlocks) {
    /** The first header block: the response headers, or the only block of a trailers-only answer. */
    Http2Headers headers() {
      return headerBlocks.get(0);
    }

    /** The last header block: the trailers. */
    Http2Headers trailers() {
      return headerBlocks.get(headerBlocks.size() - 1);
    }

    /** Whether the answer is gRPC's trailers-only: one HEADERS frame that ends the stream, and nothing else. */
    boolean trailersOnly() {
      return frames.size() == 1 && frames.get(0).type() == HEADERS && frames.get(0).endStream();
    }

    String status() {
      return String.valueOf(headers().status());
    }

    String contentType() {
      return String.valueOf(headers().get("content-type"));
    }

    String grpcStatus() {
      return String.valueOf(trailers().get("grpc-status"));
    }

    /** {@code grpc-message}, percent-decoded; null without one. */
    String grpcMessage() {
      CharSequence message = trailers().get("grpc-message");
      return message == null ? null : percentDecoded(message.toString());
    }

    /** The DATA frames' bytes, in order. */
    byte[] data() {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      for (Frame frame : frames) {
        if (frame.type() == DATA) {
          out.writeBytes(frame.payload());
        }
      }
      return out.toByteArray();
    }

    /** The length-prefixed messages of the DATA frames (each one's flag must be 0: the server never compresses). */
    List<byte[]> messages() {
      ByteBuffer data = ByteBuffer.wrap(data());
      List<byte[]> messages = new ArrayList<>();
      while (data.hasRemaining()) {
        byte flag = data.get();
        if (flag != 0) {
          throw new AssertionError("a message of the answer has the flag byte " + flag);
        }
        byte[] message = new byte[data.getInt()];
        data.get(message);
        messages.add(message);
      }
      return messages;
    }
  }

  private final Socket socket;
  private final DataInputStream in;
  private final OutputStream out;
  private final DefaultHttp2HeadersEncoder encoder = new DefaultHttp2HeadersEncoder();
  private final DefaultHttp2HeadersDecoder decoder = new DefaultHttp2HeadersDecoder(true);
  private int lastStream = -1;
  // what the server's connection window lets this side send, as its WINDOW_UPDATE frames tell
  private long sendWindow = 65_535;
  // frames of streams read while waiting for the window, before the frames still to be read
  private final ArrayDeque<Frame> received = new ArrayDeque<>();

  private RawGrpc(Socket socket) throws IOException {
    this.socket = socket;
    this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
    this.out = new BufferedOutputStream(socket.getOutputStream(), 64 * 1024);
  }

  /** Connects to the loopback {@code port} in clear text and sends the preface and an empty SETTINGS frame. */
  static RawGrpc connect(int port) throws IOException {
    Socket socket = new Socket();
    try {
      socket.setSoTimeout((int) READ_TIMEOUT.toMillis());
      socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
      RawGrpc client = new RawGrpc(socket);
      client.out.write(PREFACE);
      client.frame(SETTINGS, 0, 0, new byte[0]);
      client.out.flush();
      return client;
    } catch (IOException | RuntimeException e) {
      socket.close();
      throw e;
    }
  }

  /** The request headers of a good unary call of {@code /test.Echo/<method>}, for a test to change. */
  static Http2Headers request(String method) {
    return new DefaultHttp2Headers()
        .method("POST").scheme("http").authority("127.0.0.1").path("/test.Echo/" + method)
        .set("content-type", "application/grpc")
        .set("te", "trailers");
  }

  /** A message as gRPC frames it: the flag byte, the length, the bytes. */
  static byte[] message(int flag, byte[] bytes) {
    return ByteBuffer.allocate(5 + bytes.length).put((byte) flag).putInt(bytes.length).put(bytes).array();
  }

  /** A message's five-byte prefix alone: the flag byte and the length ({@code length}: up to 2^32 - 1). */
  static byte[] prefix(int flag, long length) {
    return ByteBuffer.allocate(5).put((byte) flag).putInt((int) length).array();
  }

  /** The id of a new stream: the next odd number. */
  int newStream() {
    lastStream += 2;
    return lastStream;
  }

  /** Sends one HEADERS frame (the whole block, END_HEADERS) on {@code stream}. */
  RawGrpc headers(int stream, Http2Headers headers, boolean endStream) throws IOException {
    ByteBuf block = Unpooled.buffer();
    try {
      encoder.encodeHeaders(stream, headers, block);
      frame(HEADERS, END_HEADERS | (endStream ? END_STREAM : 0), stream, ByteBufUtil.getBytes(block));
    } catch (Http2Exception e) {
      throw new IllegalStateException(e);
    } finally {
      block.release();
    }
    out.flush();
    return this;
  }

  /**
   * Sends {@code bytes} on {@code stream} in DATA frames of at most {@value #MAX_FRAME_PAYLOAD} bytes, each as
   * soon as the connection's window lets it go.
   */
  RawGrpc data(int stream, byte[] bytes, boolean endStream) throws IOException {
    int offset = 0;
    do {
      if (offset < bytes.length) {
        awaitSendWindow(1);
      }
      int length = (int) Math.min(Math.min(MAX_FRAME_PAYLOAD, bytes.length - offset), sendWindow);
      boolean last = offset + length == bytes.length;
      byte[] payload = new byte[length];
      System.arraycopy(bytes, offset, payload, 0, length);
      frame(DATA, last && endStream ? END_STREAM : 0, stream, payload);
      sendWindow -= length;
      offset += length;
    } while (offset < bytes.length);
    out.flush();
    return this;
  }

  /** Sends an RST_STREAM of {@code stream} with {@code errorCode}. */
  RawGrpc reset(int stream, long errorCode) throws IOException {
    frame(RST_STREAM, 0, stream, ByteBuffer.allocate(4).putInt((int) errorCode).array());
    out.flush();
    return this;
  }

  /** A whole request on a new stream: {@code headers}, then {@code body} ending the stream; and its answer. */
  Answer call(Http2Headers headers, byte[] body) throws IOException {
    int stream = newStream();
    headers(stream, headers, false);
    data(stream, body, true);
    return answer(stream);
  }

  /**
   * Reads the server's answer on {@code stream}, up to the frame that ends it; frames of other streams are
   * dropped.
   */
  Answer answer(int stream) throws IOException {
    List<Frame> frames = new ArrayList<>();
    List<Http2Headers> blocks = new ArrayList<>();
    while (true) {
      Frame frame = next();
      if (frame.stream() != stream) {
        continue;
      }
      frames.add(frame);
      if (frame.type() == HEADERS) {
        blocks.add(decode(frame));
      }
      if (frame.endStream() || frame.type() == RST_STREAM) {
        return new Answer(List.copyOf(frames), List.copyOf(blocks));
      }
    }
  }

  /** The next frame the server sends on {@code stream}; frames of other streams are dropped. */
  Frame nextOn(int stream) throws IOException {
    while (true) {
      Frame frame = next();
      if (frame.stream() == stream) {
        return frame;
      }
    }
  }

  /**
   * Sends what is buffered and reads frames until the server's connection window lets this side send
   * {@code bytes} more (frames of streams are kept for {@link #next}).
   */
  private void awaitSendWindow(int bytes) throws IOException {
    if (sendWindow < bytes) {
      out.flush();
    }
    while (sendWindow < bytes) {
      Frame frame = readOne();
      if (frame.stream() != 0) {
        received.add(frame);
      }
    }
  }

  /** The next frame of a stream, the connection's own frames handled on the way ({@link #readOne}). */
  private Frame next() throws IOException {
    if (!received.isEmpty()) {
      return received.remove();
    }
    while (true) {
      Frame frame = readOne();
      if (frame.stream() != 0) {
        return frame;
      }
    }
  }

  /**
   * The next frame, the connection's own handled: SETTINGS acknowledged, WINDOW_UPDATE counted, the connection
   * window of DATA given back; a GOAWAY or a close fails the test.
   */
  private Frame readOne() throws IOException {
    Frame frame = read();
    if (frame == null) {
      throw new AssertionError("the server closed the connection");
    }
    if (frame.type() == GOAWAY) {
      throw new AssertionError("the server sent GOAWAY with error code " + frame.errorCode() + ": "
          + new String(frame.payload(), 8, frame.payload().length - 8, StandardCharsets.UTF_8));
    }
    if (frame.type() == SETTINGS && (frame.flags() & ACK) == 0) {
      frame(SETTINGS, ACK, 0, new byte[0]);
      out.flush();
    }
    if (frame.type() == WINDOW_UPDATE && frame.stream() == 0) {
      sendWindow += ByteBuffer.wrap(frame.payload()).getInt() & 0x7fffffff;
    }
    if (frame.type() == DATA && frame.payload().length > 0) {
      frame(WINDOW_UPDATE, 0, 0, ByteBuffer.allocate(4).putInt(frame.payload().length).array());
      out.flush();
    }
    return frame;
  }

  /** A HEADERS frame's block (with its CONTINUATION frames, if any) decoded. */
  private Http2Headers decode(Frame headers) throws IOException {
    ByteBuffer payload = ByteBuffer.wrap(headers.payload());
    int padding = (headers.flags() & PADDED) != 0 ? payload.get() & 0xff : 0;
    if ((headers.flags() & PRIORITY) != 0) {
      payload.position(payload.position() + 5);
    }
    ByteArrayOutputStream block = new ByteArrayOutputStream();
    block.write(headers.payload(), payload.position(), payload.remaining() - padding);
    boolean endHeaders = (headers.flags() & END_HEADERS) != 0;
    while (!endHeaders) {
      Frame continuation = next();
      if (continuation.type() != CONTINUATION || continuation.stream() != headers.stream()) {
        throw new AssertionError("a header block went on with " + continuation);
      }
      block.writeBytes(continuation.payload());
      endHeaders = (continuation.flags() & END_HEADERS) != 0;
    }
    ByteBuf bytes = Unpooled.wrappedBuffer(block.toByteArray());
    try {
      return decoder.decodeHeaders(headers.stream(), bytes);
    } catch (Http2Exception e) {
      throw new AssertionError("the server's header block does not decode", e);
    } finally {
      bytes.release();
    }
  }

  private void frame(int type, int flags, int stream, byte[] payload) throws IOException {
    out.write(payload.length >>> 16);
    out.write(payload.length >>> 8);
    out.write(payload.length);
    out.write(type);
    out.write(flags);
    out.write(ByteBuffer.allocate(4).putInt(stream & 0x7fffffff).array());
    out.write(payload);
  }

  /** The next frame the server sent; null once it closed the connection. */
  private Frame read() throws IOException {
    byte[] header = new byte[9];
    try {
      in.readFully(header);
      int length = ((header[0] & 0xff) << 16) | ((header[1] & 0xff) << 8) | (header[2] & 0xff);
      byte[] payload = new byte[length];
      in.readFully(payload);
      int stream = ByteBuffer.wrap(header, 5, 4).getInt() & 0x7fffffff;
      return new Frame(header[3] & 0xff, header[4] & 0xff, stream, payload);
    } catch (EOFException e) {
      return null;
    }
  }

  /** {@code grpc-message}'s percent-encoding undone (UTF-8). */
  static String percentDecoded(String text) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '%' && i + 2 < text.length()) {
        bytes.write(Integer.parseInt(text.substring(i + 1, i + 3), 16));
        i += 2;
      } else {
        bytes.write(c);
      }
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Override
  public void close() throws IOException {
    encoder.close();
    socket.close();
  }
}
