package io.boltgen.runtime.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.json.JsonFactory;

/**
 * An HTTP/1.1 client on a plain {@link Socket}, as an attacker (or a careful test) would write one: it sends
 * exactly the bytes it is given and reads answers one at a time, every read bounded by SO_TIMEOUT.
 */
final class RawHttp implements AutoCloseable {

  /** How long any one read may block. */
  static final Duration READ_TIMEOUT = Duration.ofSeconds(10);

  private static final JsonFactory JSON = JsonFactory.builder().build();

  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;

  private RawHttp(Socket socket) throws IOException {
    this.socket = socket;
    this.in = new BufferedInputStream(socket.getInputStream());
    this.out = socket.getOutputStream();
  }

  /** Connects to the loopback port. */
  static RawHttp connect(int port) throws IOException {
    return connect(port, 0);
  }

  /** A client over {@code socket}, connected already. */
  static RawHttp over(Socket socket) throws IOException {
    return new RawHttp(socket);
  }

  /** Connects with a receive buffer of {@code receiveBuffer} bytes (0: the default). */
  static RawHttp connect(int port, int receiveBuffer) throws IOException {
    Socket socket = new Socket();
    try {
      if (receiveBuffer > 0) {
        socket.setReceiveBufferSize(receiveBuffer);
      }
      socket.setSoTimeout((int) READ_TIMEOUT.toMillis());
      socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
      return new RawHttp(socket);
    } catch (IOException | RuntimeException e) {
      socket.close();
      throw e;
    }
  }

  /** A POST of {@code body} to {@code path}, with these extra header lines (each "Name: value"). */
  static String post(String path, String contentType, String body, String... headers) {
    return new String(postBytes(path, contentType, body.getBytes(StandardCharsets.UTF_8), headers),
        StandardCharsets.ISO_8859_1);
  }

  /** A POST of {@code body} to {@code path}; no Content-Type line when {@code contentType} is null. */
  static byte[] postBytes(String path, String contentType, byte[] body, String... headers) {
    StringBuilder head = new StringBuilder("POST ").append(path).append(" HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    if (contentType != null) {
      head.append("Content-Type: ").append(contentType).append("\r\n");
    }
    for (String header : headers) {
      head.append(header).append("\r\n");
    }
    head.append("Content-Length: ").append(body.length).append("\r\n\r\n");
    byte[] start = head.toString().getBytes(StandardCharsets.ISO_8859_1);
    byte[] all = new byte[start.length + body.length];
    System.arraycopy(start, 0, all, 0, start.length);
    System.arraycopy(body, 0, all, start.length, body.length);
    return all;
  }

  RawHttp send(String text) throws IOException {
    return send(text.getBytes(StandardCharsets.ISO_8859_1));
  }

  RawHttp send(byte[] bytes) throws IOException {
    out.write(bytes);
    out.flush();
    return this;
  }

  /** Reads one whole answer (its body by Content-Length); fails if the connection ends first. */
  Response read() throws IOException {
    String statusLine = line();
    assertThat(statusLine).as("status line").startsWith("HTTP/1.1 ");
    int status = Integer.parseInt(statusLine.substring(9, 12));
    Map<String, String> headers = new LinkedHashMap<>();
    for (String line = line(); !line.isEmpty(); line = line()) {
      int colon = line.indexOf(':');
      headers.put(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim());
    }
    int length = Integer.parseInt(headers.getOrDefault("content-length", "0"));
    byte[] body = in.readNBytes(length);
    assertThat(body).as("body of %s", statusLine).hasSize(length);
    return new Response(status, headers, body);
  }

  /** Reads only the status line and headers of an answer (leaving its body unread). */
  Response readHead() throws IOException {
    String statusLine = line();
    assertThat(statusLine).as("status line").startsWith("HTTP/1.1 ");
    Map<String, String> headers = new LinkedHashMap<>();
    for (String line = line(); !line.isEmpty(); line = line()) {
      int colon = line.indexOf(':');
      headers.put(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim());
    }
    return new Response(Integer.parseInt(statusLine.substring(9, 12)), headers, new byte[0]);
  }

  /** Reads one whole chunked answer: its head, then its chunks joined (fails if the connection ends first). */
  Response readChunked() throws IOException {
    Response head = readHead();
    assertThat(head.header("transfer-encoding")).as("transfer-encoding").isEqualTo("chunked");
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    for (int size = Integer.parseInt(line().trim(), 16); size > 0; size = Integer.parseInt(line().trim(), 16)) {
      byte[] chunk = in.readNBytes(size);
      assertThat(chunk).as("a chunk").hasSize(size);
      body.write(chunk);
      assertThat(line()).as("the chunk's end").isEmpty();
    }
    assertThat(line()).as("the end of the trailers").isEmpty();
    return new Response(head.status(), head.headers(), body.toByteArray());
  }

  private String line() throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    while (true) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("the connection ended in an answer's head, after \"" + line + "\"");
      }
      if (b == '\n') {
        String text = line.toString(StandardCharsets.ISO_8859_1);
        return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
      }
      line.write(b);
    }
  }

  /**
   * Whether the server closes the connection within {@code within} without sending anything more: a read
   * returns end of stream (or the connection is reset). Fails if bytes arrive; false if it stays open.
   */
  boolean closedWithin(Duration within) throws IOException {
    int timeout = socket.getSoTimeout();
    socket.setSoTimeout((int) within.toMillis());
    try {
      int b = in.read();
      assertThat(b).as("a byte after the last answer").isEqualTo(-1);
      return true;
    } catch (SocketTimeoutException e) {
      return false;
    } catch (SocketException e) {
      return e.getMessage() != null && e.getMessage().contains("reset");
    } finally {
      if (!socket.isClosed()) {
        socket.setSoTimeout(timeout);
      }
    }
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }

  /** One answer: its status, headers (lower-case names) and body. */
  static final class Response {
    private final int status;
    private final Map<String, String> headers;
    private final byte[] body;

    Response(int status, Map<String, String> headers, byte[] body) {
      this.status = status;
      this.headers = headers;
      this.body = body.clone();
    }

    int status() {
      return status;
    }

    Map<String, String> headers() {
      return headers;
    }

    byte[] body() {
      return body.clone();
    }

    String text() {
      return new String(body, StandardCharsets.UTF_8);
    }

    String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }

    /** The Connect error body's string fields ({@code code}, {@code message}). */
    Map<String, String> error() {
      return errorFields(text());
    }
  }

  /** The string fields of a Connect error body; fails unless it is a JSON object. */
  static Map<String, String> errorFields(String json) {
    Map<String, String> fields = new LinkedHashMap<>();
    try (JsonParser parser = JSON.createParser(ObjectReadContext.empty(), json)) {
      assertThat(parser.nextToken()).as("a Connect error is a JSON object: %s", json).isEqualTo(JsonToken.START_OBJECT);
      for (String name = parser.nextName(); name != null; name = parser.nextName()) {
        if (parser.nextToken() == JsonToken.VALUE_STRING) {
          fields.put(name, parser.getString());
        } else {
          parser.skipChildren();
        }
      }
    }
    return fields;
  }
}
