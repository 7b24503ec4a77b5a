package io.boltgen.runtime.http;

import static org.assertj.core.api.Assertions.assertThat;
import static io.boltgen.runtime.http.Envelopes.concat;
import static io.boltgen.runtime.http.Envelopes.envelope;
import static io.boltgen.runtime.http.Envelopes.envelopes;
import static io.boltgen.runtime.http.Envelopes.onlyEnd;
import static org.awaitility.Awaitility.await;

import io.boltgen.runtime.BoltServer;
import io.boltgen.runtime.Tallies;
import io.boltgen.runtime.http.Envelopes.Envelope;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.DefaultHttp2HeadersDecoder;
import io.netty.handler.codec.http2.Http2Headers;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Connect's client and bidirectional streaming on the Bolt port, at the byte level: a client stream over HTTP/1.1
 * (chunked, or with a Content-Length) and HTTP/2, a bidirectional one over HTTP/2 answering each message as it comes
 * (and refused 505 over HTTP/1.1); envelopes split anywhere across the body's parts; gzip; a handler's failure, a
 * broken envelope, a message over the limit and the deadline each end the stream with their error; an answer that
 * ends before the body closes the HTTP/1.1 connection and resets the HTTP/2 stream; a handler that does not ask for
 * messages stops the reading of the connection (HTTP/1.1) or closes the stream's window (HTTP/2); a reset cancels.
 */
class ConnectClientStreamingTest {

  private static final Duration BOUND = Duration.ofSeconds(10);
  private static final String PROTO = "application/connect+proto";

  private final Tallies tallies = new Tallies();
  private BoltServer server;

  @BeforeEach
  void start() {
    // a frame timeout of 1 s: how long a connection lingers for the rest of a body its answer did not wait for
    server = BoltServer.builder().bind("127.0.0.1", 0).service(tallies.definition()).http(true)
        .frameTimeout(Duration.ofSeconds(1)).build().start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  // ------------------------------------------------------------------ HTTP/1.1

  @Test
  void aClientStreamOverHttp1ChunkedOrNotThenTheConnectionServesOn() throws Exception {
    try (RawHttp raw = RawHttp.connect(server.port())) {
      raw.send(chunkedHead("sum"));
      for (int i = 0; i < 3; i++) {
        raw.send(chunk(envelope(0, Tallies.message(i, 100))));
      }
      raw.send(lastChunk());
      RawHttp.Response answer = raw.readChunked();
      assertThat(answer.status()).isEqualTo(200);
      assertThat(answer.header("content-type")).isEqualTo(PROTO);
      assertThat(answer.header("connection")).isNotEqualTo("close");
      List<Envelope> envelopes = envelopes(answer.body());
      assertThat(envelopes).hasSize(2);
      assertThat(Tallies.counts(envelopes.get(0).bytes())).containsExactly(3, 300);
      assertThat(envelopes.get(1).flags()).isEqualTo(2);
      assertThat(envelopes.get(1).text()).isEqualTo("{}");
      // envelopes split anywhere across the body's chunks: inside a prefix, inside a message
      byte[] body = concat(envelope(0, Tallies.message(0, 40)), envelope(0, Tallies.message(1, 60)));
      raw.send(chunkedHead("sum"));
      raw.send(chunk(java.util.Arrays.copyOfRange(body, 0, 3)));
      raw.send(chunk(java.util.Arrays.copyOfRange(body, 3, 50)));
      raw.send(chunk(java.util.Arrays.copyOfRange(body, 50, body.length)));
      raw.send(lastChunk());
      assertThat(Tallies.counts(envelopes(raw.readChunked().body()).get(0).bytes())).containsExactly(2, 100);
      // a body with a Content-Length streams the same way
      raw.send(RawHttp.postBytes("/test.Tally/sum", PROTO, body));
      assertThat(Tallies.counts(envelopes(raw.readChunked().body()).get(0).bytes())).containsExactly(2, 100);
      // an empty stream of requests is a stream of none
      raw.send(RawHttp.postBytes("/test.Tally/sum", PROTO, new byte[0]));
      assertThat(Tallies.counts(envelopes(raw.readChunked().body()).get(0).bytes())).containsExactly(0, 0);
    }
  }

  @Test
  void aBodyLongerThanTheBodyLimitIsInvitedAndStreamed() throws Exception {
    int messages = 17;
    int size = 1024 * 1024; // 17 MiB in all, over the server's limit of 16 MiB for a whole body; each message under it
    try (RawHttp raw = RawHttp.connect(server.port())) {
      raw.send("POST /test.Tally/sum HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: " + PROTO + "\r\nContent-Length: "
          + (long) messages * (5 + size) + "\r\nExpect: 100-continue\r\n\r\n");
      assertThat(raw.readHead().status()).as("the body is invited").isEqualTo(100);
      for (int i = 0; i < messages; i++) {
        raw.send(envelope(0, Tallies.message(i, size)));
      }
      assertThat(Tallies.counts(envelopes(raw.readChunked().body()).get(0).bytes()))
          .containsExactly(messages, (long) messages * size);
    }
  }

  @Test
  void aMessageOfExactlyTheLimitIsTakenAndOneByteMoreRefused() throws Exception {
    int limit = 1024;
    try (BoltServer small = BoltServer.builder().bind("127.0.0.1", 0).service(tallies.definition()).http(true)
        .maxFrameLength(limit).build().start();
        RawHttp raw = RawHttp.connect(small.port())) {
      // whole in one chunk, and cut across two (the one copied together)
      byte[] atLimit = envelope(0, Tallies.message(0, limit));
      raw.send(chunkedHead("sum"));
      raw.send(chunk(atLimit));
      raw.send(chunk(java.util.Arrays.copyOfRange(atLimit, 0, 600)));
      raw.send(chunk(java.util.Arrays.copyOfRange(atLimit, 600, atLimit.length)));
      raw.send(lastChunk());
      assertThat(Tallies.counts(envelopes(raw.readChunked().body()).get(0).bytes())).containsExactly(2L, 2L * limit);
      raw.send(RawHttp.postBytes("/test.Tally/sum", PROTO, envelope(0, Tallies.message(0, limit + 1))));
      assertThat(onlyEnd(raw.readChunked())).isEqualTo("{\"error\":{\"code\":\"resource_exhausted\",\"message\":"
          + "\"a message of 1025 bytes is over the server's limit of 1024 bytes\"}}");
    }
  }

  @Test
  void gzipMessagesAreInflated() throws Exception {
    try (RawHttp raw = RawHttp.connect(server.port())) {
      byte[] body = concat(envelope(1, gzip(Tallies.message(0, 5000))), envelope(0, Tallies.message(1, 10)));
      raw.send(RawHttp.postBytes("/test.Tally/sum", PROTO, body, "Connect-Content-Encoding: gzip"));
      assertThat(Tallies.counts(envelopes(raw.readChunked().body()).get(0).bytes())).containsExactly(2, 5010);
      raw.send(RawHttp.postBytes("/test.Tally/sum", PROTO, body, "Connect-Content-Encoding: br"));
      assertThat(onlyEnd(raw.readChunked())).startsWith("{\"error\":{\"code\":\"unimplemented\",\"message\":"
          + "\"Connect-Content-Encoding br is not supported: send messages uncompressed, or gzip\"");
    }
  }

  @Test
  void theHandlersFailureEndsTheStreamAndTheConnectionClosesOnceTheBodyEnded() throws Exception {
    try (RawHttp raw = RawHttp.connect(server.port())) {
      raw.send(chunkedHead("sumThenFail"));
      raw.send(chunk(concat(envelope(0, Tallies.message(0, 8)), envelope(0, Tallies.message(1, 8)))));
      RawHttp.Response failed = raw.readChunked();
      assertThat(onlyEnd(failed)).isEqualTo("{\"error\":{\"code\":\"internal\",\"message\":\"the tally broke\"}}");
      // the rest of the body is read and dropped, and the connection closes once it ended (a lingering close: no
      // reset that could lose the answer), serving nothing more
      raw.send(chunk(envelope(0, Tallies.message(2, 8))));
      raw.send(concat(lastChunk(), RawHttp.postBytes("/test.Tally/sum", PROTO, envelope(0, Tallies.message(0, 8)))));
      assertThat(raw.closedWithin(BOUND)).as("closed after the body, the next request not served").isTrue();
    }
    try (RawHttp raw = RawHttp.connect(server.port())) {
      raw.send(RawHttp.postBytes("/test.Tally/sumThenRefuse", PROTO,
          concat(envelope(0, Tallies.message(0, 8)), envelope(0, Tallies.message(1, 8)))));
      assertThat(onlyEnd(raw.readChunked())).startsWith("{\"error\":{\"code\":\"failed_precondition\",\"message\":"
          + "\"the tally is closed for the night\",\"details\":[{\"type\":\"java.io.IOException\"");
    }
  }

  @Test
  void aBrokenBodyEndsTheStreamWithItsErrorAndCancelsTheCall() throws Exception {
    try (RawHttp raw = RawHttp.connect(server.port())) {
      raw.send(chunkedHead("sum"));
      raw.send(chunk(envelope(0, Tallies.message(0, 8))));
      await().atMost(BOUND).until(() -> tallies.last != null && tallies.last.received.get() == 1);
      raw.send(chunk(envelope(2, Tallies.message(1, 8))));
      assertThat(onlyEnd(raw.readChunked())).isEqualTo("{\"error\":{\"code\":\"invalid_argument\",\"message\":"
          + "\"a message's flag byte is 2: a request's are 0 and 1\"}}");
      await().atMost(BOUND).until(() -> tallies.last.cancelled.getCount() == 0);
      assertThat(tallies.last.received.get()).as("nothing after the broken envelope").isEqualTo(1);
      assertThat(raw.closedWithin(BOUND)).isTrue();
    }
    try (RawHttp raw = RawHttp.connect(server.port())) {
      raw.send(chunkedHead("sum"));
      raw.send(chunk(ByteBuffer.allocate(5).put((byte) 0).putInt(Integer.MAX_VALUE).array()));
      assertThat(onlyEnd(raw.readChunked())).startsWith("{\"error\":{\"code\":\"resource_exhausted\",\"message\":"
          + "\"a message of 2147483647 bytes is over the server's limit of");
    }
    try (RawHttp raw = RawHttp.connect(server.port())) {
      raw.send(RawHttp.postBytes("/test.Tally/sum", PROTO, envelope(1, Tallies.message(0, 8))));
      assertThat(onlyEnd(raw.readChunked())).contains(
          "a message is flagged compressed, but the request names no Connect-Content-Encoding to read it with");
      // a body that ends inside a message: its end is the error, the body was read whole, and the connection serves on
      byte[] truncated = java.util.Arrays.copyOf(envelope(0, Tallies.message(0, 8)), 9);
      raw.send(RawHttp.postBytes("/test.Tally/sum", PROTO, truncated));
      assertThat(onlyEnd(raw.readChunked())).contains(
          "the request ended inside a message: its prefix says 8 bytes, 4 arrived");
      raw.send(RawHttp.postBytes("/test.Tally/sum", PROTO, envelope(0, Tallies.message(0, 8))));
      assertThat(Tallies.counts(envelopes(raw.readChunked().body()).get(0).bytes())).containsExactly(1, 8);
    }
    try (RawHttp raw = RawHttp.connect(server.port())) {
      // a chunk size that is no number: HTTP's framing is broken, so the answer says so and the connection closes
      raw.send(chunkedHead("sum"));
      raw.send(chunk(envelope(0, Tallies.message(0, 8))));
      raw.send("zz\r\n");
      assertThat(onlyEnd(raw.readChunked())).startsWith("{\"error\":{\"code\":\"invalid_argument\",\"message\":"
          + "\"the request body is not valid HTTP:");
      assertThat(raw.closedWithin(BOUND)).isTrue();
    }
  }

  @Test
  void theCallersDeadlineCoversTheBody() throws Exception {
    try (RawHttp raw = RawHttp.connect(server.port())) {
      raw.send(chunkedHead("hold", "Connect-Timeout-Ms: 300"));
      raw.send(chunk(envelope(0, Tallies.message(0, 8))));
      assertThat(onlyEnd(raw.readChunked())).isEqualTo("{\"error\":{\"code\":\"deadline_exceeded\",\"message\":"
          + "\"/test.Tally/hold did not end its stream within 300 ms\"}}");
      assertThat(raw.closedWithin(BOUND)).as("the rest of the body waited for one frame timeout, then closed").isTrue();
    }
  }

  @Test
  void bidirectionalStreamsNeedHttp2() throws Exception {
    try (RawHttp raw = RawHttp.connect(server.port())) {
      raw.send(chunkedHead("echo"));
      raw.send(chunk(envelope(0, Tallies.message(0, 8))));
      RawHttp.Response refused = raw.read();
      assertThat(refused.status()).isEqualTo(505);
      assertThat(refused.error()).containsEntry("code", "unimplemented").containsEntry("message",
          "/test.Tally/echo is bidirectional, which Connect carries over HTTP/2 only: call it over HTTP/2");
      assertThat(raw.closedWithin(BOUND)).isTrue();
    }
    assertThat(tallies.last).as("no handler ran").isNull();
  }

  @Test
  void aHandlerThatDoesNotAskStopsTheConnectionBeingRead() throws Exception {
    int messages = 256;
    int size = 64 * 1024;
    try (Socket socket = new Socket()) {
      socket.setSendBufferSize(16 * 1024);
      socket.setSoTimeout((int) BOUND.toMillis());
      socket.connect(new InetSocketAddress("127.0.0.1", server.port()), 5_000);
      socket.getOutputStream().write(chunkedHead("hold"));
      // 16 MiB, more than any socket buffers hold: the writer blocks once the server stops reading
      CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
        try {
          for (int i = 0; i < messages; i++) {
            socket.getOutputStream().write(chunk(envelope(0, Tallies.message(i, size))));
          }
          socket.getOutputStream().write(lastChunk());
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      });
      await().atMost(BOUND).until(() -> tallies.last != null && tallies.last.received.get() == 1);
      await().during(Duration.ofMillis(300)).atMost(BOUND).until(() -> !writer.isDone()
          && tallies.last.received.get() == 1);
      tallies.last.resume();
      writer.get(BOUND.toMillis(), TimeUnit.MILLISECONDS);
      RawHttp reader = RawHttp.over(socket);
      assertThat(Tallies.counts(envelopes(reader.readChunked().body()).get(0).bytes()))
          .containsExactly(messages, (long) messages * size);
    }
  }

  /**
   * With the epoll transport (the default on Linux), a peer's close is told while reads are paused; with NIO it is
   * noticed only once reading resumes, or the call ends at its deadline (http.md says so).
   */
  @Test
  void aClosedConnectionCancelsACallWhoseReadsAreHeld() throws Exception {
    try (RawHttp raw = RawHttp.connect(server.port())) {
      raw.send(chunkedHead("hold"));
      raw.send(chunk(concat(envelope(0, Tallies.message(0, 8)), envelope(0, Tallies.message(1, 8)))));
      await().atMost(BOUND).until(() -> tallies.last != null && tallies.last.received.get() == 1);
    } // the second message waits unasked, so the connection's reads are held as it closes
    await().atMost(BOUND).until(() -> tallies.last.cancelled.getCount() == 0);
    await().atMost(BOUND).until(() -> server.cancelledCalls() == 1);
  }

  // ------------------------------------------------------------------ HTTP/2

  @Test
  void aBidirectionalStreamOverHttp2AnswersEachMessageAsItComes() throws Exception {
    try (RawHttp2 h2 = RawHttp2.connect(server.port()); Frames frames = new Frames(h2)) {
      h2.frame(RawHttp2.HEADERS, RawHttp2.END_HEADERS, 1, h2.postHeaders("/test.Tally/echo", PROTO)).flush();
      for (int i = 0; i < 3; i++) {
        h2.frame(RawHttp2.DATA, 0, 1, envelope(0, Tallies.message(i, 12))).flush();
        // each answer comes before the next request is sent: the stream is full duplex
        assertThat(frames.envelope(1).bytes()).isEqualTo(Tallies.message(i, 12));
      }
      Http2Headers head = frames.head;
      assertThat(head.status().toString()).isEqualTo("200");
      assertThat(head.get("content-type").toString()).isEqualTo(PROTO);
      h2.frame(RawHttp2.DATA, RawHttp2.END_STREAM, 1, new byte[0]).flush();
      Envelope end = frames.envelope(1);
      assertThat(end.flags()).isEqualTo(2);
      assertThat(end.text()).isEqualTo("{}");
      assertThat(frames.ended(1)).isTrue();
      // a client stream on the same connection
      h2.frame(RawHttp2.HEADERS, RawHttp2.END_HEADERS, 3, h2.postHeaders("/test.Tally/sum", PROTO))
          .frame(RawHttp2.DATA, 0, 3, envelope(0, Tallies.message(0, 30)))
          .frame(RawHttp2.DATA, RawHttp2.END_STREAM, 3, envelope(0, Tallies.message(1, 30))).flush();
      assertThat(Tallies.counts(frames.envelope(3).bytes())).containsExactly(2, 60);
      assertThat(frames.envelope(3).text()).isEqualTo("{}");
      // a stream of no requests: its headers end the stream, and the request comes whole
      int endOfHeaders = RawHttp2.END_HEADERS | RawHttp2.END_STREAM;
      h2.frame(RawHttp2.HEADERS, endOfHeaders, 5, h2.postHeaders("/test.Tally/sum", PROTO)).flush();
      assertThat(Tallies.counts(frames.envelope(5).bytes())).containsExactly(0, 0);
      assertThat(frames.envelope(5).text()).isEqualTo("{}");
      h2.frame(RawHttp2.HEADERS, endOfHeaders, 7, h2.postHeaders("/test.Tally/echo", PROTO)).flush();
      assertThat(frames.envelope(7).text()).isEqualTo("{}");
      assertThat(frames.ended(7)).isTrue();
    }
  }

  @Test
  void aHandlerThatDoesNotAskClosesTheStreamsWindowAndAResetCancelsIt() throws Exception {
    try (RawHttp2 h2 = RawHttp2.connect(server.port()); Frames frames = new Frames(h2)) {
      h2.frame(RawHttp2.HEADERS, RawHttp2.END_HEADERS, 1, h2.postHeaders("/test.Tally/hold", PROTO));
      // seven messages of 8 KiB fill most of the stream's window of 64 KiB; the server tells the handler one, holds
      // the next, and reads no further: it consumes less than half the window, so it grants no more
      for (int i = 0; i < 7; i++) {
        h2.frame(RawHttp2.DATA, 0, 1, envelope(0, Tallies.message(i, 8 * 1024 - 5)));
      }
      h2.flush();
      await().atMost(BOUND).until(() -> tallies.last != null && tallies.last.received.get() == 1);
      await().during(Duration.ofMillis(300)).atMost(BOUND).until(() -> frames.windowUpdates(1) == 0
          && tallies.last.received.get() == 1);
      tallies.last.resume();
      await().atMost(BOUND).until(() -> tallies.last.received.get() == 7);
      await().atMost(BOUND).until(() -> frames.windowUpdates(1) > 0); // read on: the window opens again
      tallies.last.resume(); // asks again: a reset cancels the call that waits
      h2.reset(1, RawHttp2.CANCEL).flush();
      await().atMost(BOUND).until(() -> tallies.last.cancelled.getCount() == 0);
      await().atMost(BOUND).until(() -> server.cancelledCalls() == 1);
    }
  }

  @Test
  void anAnswerBeforeTheBodyEndsResetsTheHttp2Stream() throws Exception {
    try (RawHttp2 h2 = RawHttp2.connect(server.port()); Frames frames = new Frames(h2)) {
      h2.frame(RawHttp2.HEADERS, RawHttp2.END_HEADERS, 1, h2.postHeaders("/test.Tally/first", PROTO))
          .frame(RawHttp2.DATA, 0, 1, envelope(0, Tallies.message(5, 8))).flush();
      assertThat(frames.envelope(1).bytes()).isEqualTo(Tallies.message(5, 8));
      assertThat(frames.envelope(1).text()).isEqualTo("{}");
      assertThat(frames.ended(1)).isTrue();
      RawHttp2.Frame reset = frames.next(1, RawHttp2.RST_STREAM);
      assertThat(reset.errorCode()).as("NO_ERROR: stop sending").isZero();
    }
  }

  // ------------------------------------------------------------------ helpers

  /** Reads the server's frames on a thread of its own, so that the test sees what arrived without blocking. */
  private static final class Frames implements AutoCloseable {
    private final LinkedBlockingQueue<RawHttp2.Frame> queue = new LinkedBlockingQueue<>();
    private final List<RawHttp2.Frame> windowUpdates = java.util.Collections.synchronizedList(new ArrayList<>());
    private final DefaultHttp2HeadersDecoder decoder = new DefaultHttp2HeadersDecoder(true);
    private final Thread reader;
    Http2Headers head;

    Frames(RawHttp2 h2) {
      reader = new Thread(() -> {
        try {
          for (RawHttp2.Frame f = h2.read(); f != null; f = h2.read()) {
            if (f.type() == RawHttp2.WINDOW_UPDATE) {
              windowUpdates.add(f);
            } else {
              queue.add(f);
            }
          }
        } catch (IOException e) {
          // the socket closed with the test
        }
      }, "raw-h2-reader");
      reader.setDaemon(true);
      reader.start();
    }

    // the DATA bytes of each stream not yet read as envelopes, and the streams whose answer ended
    private final java.util.Map<Integer, ByteArrayOutputStream> data = new java.util.HashMap<>();
    private final java.util.Set<Integer> ended = new java.util.HashSet<>();

    /** The next envelope of {@code stream}'s answer, however its DATA frames cut it (Netty merges queued ones). */
    Envelope envelope(int stream) throws Exception {
      ByteArrayOutputStream pending = data.computeIfAbsent(stream, s -> new ByteArrayOutputStream());
      while (true) {
        byte[] bytes = pending.toByteArray();
        if (bytes.length >= 5 && bytes.length >= 5 + ByteBuffer.wrap(bytes, 1, 4).getInt()) {
          int length = ByteBuffer.wrap(bytes, 1, 4).getInt();
          pending.reset();
          pending.write(bytes, 5 + length, bytes.length - 5 - length);
          return new Envelope(bytes[0] & 0xff, java.util.Arrays.copyOfRange(bytes, 5, 5 + length));
        }
        RawHttp2.Frame f = next(stream, RawHttp2.DATA);
        pending.writeBytes(f.payload());
        if ((f.flags() & RawHttp2.END_STREAM) != 0) {
          ended.add(stream);
        }
      }
    }

    /**
     * Whether {@code stream}'s answer ends (END_STREAM) with no more bytes: DATA frames are read until it does (its
     * last may be a DATA frame of its own, empty, or merged with the one before).
     */
    boolean ended(int stream) throws Exception {
      ByteArrayOutputStream pending = data.computeIfAbsent(stream, s -> new ByteArrayOutputStream());
      while (!ended.contains(stream)) {
        RawHttp2.Frame f = next(stream, RawHttp2.DATA);
        pending.writeBytes(f.payload());
        if ((f.flags() & RawHttp2.END_STREAM) != 0) {
          ended.add(stream);
        }
      }
      return pending.size() == 0;
    }

    /** How many WINDOW_UPDATE frames of {@code stream} arrived. */
    int windowUpdates(int stream) {
      synchronized (windowUpdates) {
        return (int) windowUpdates.stream().filter(f -> f.stream() == stream).count();
      }
    }

    /** The next frame of {@code type} on {@code stream}, others dropped; the first HEADERS is kept in {@link #head}. */
    RawHttp2.Frame next(int stream, int type) throws Exception {
      long end = System.nanoTime() + BOUND.toNanos();
      while (System.nanoTime() < end) {
        RawHttp2.Frame f = queue.poll(end - System.nanoTime(), TimeUnit.NANOSECONDS);
        if (f == null) {
          break;
        }
        if (f.type() == RawHttp2.HEADERS && head == null) {
          head = decoder.decodeHeaders(f.stream(), Unpooled.wrappedBuffer(f.payload()));
        }
        if (f.stream() == stream && f.type() == type) {
          return f;
        }
      }
      throw new AssertionError("no frame of type " + type + " on stream " + stream + " within " + BOUND);
    }

    /** The reader ends as the test's connection closes (after this, in try-with-resources order). */
    @Override
    public void close() {
      reader.interrupt();
    }
  }

  private static byte[] chunkedHead(String method, String... headers) {
    StringBuilder head = new StringBuilder("POST /test.Tally/").append(method)
        .append(" HTTP/1.1\r\nHost: 127.0.0.1\r\n").append("Content-Type: ").append(PROTO)
        .append("\r\nTransfer-Encoding: chunked\r\n");
    for (String header : headers) {
      head.append(header).append("\r\n");
    }
    return head.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
  }

  private static byte[] chunk(byte[] data) {
    return concat((Integer.toHexString(data.length) + "\r\n").getBytes(StandardCharsets.ISO_8859_1), data,
        "\r\n".getBytes(StandardCharsets.ISO_8859_1));
  }

  private static byte[] lastChunk() {
    return "0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1);
  }

  private static byte[] gzip(byte[] data) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream zip = new GZIPOutputStream(out)) {
      zip.write(data);
    }
    return out.toByteArray();
  }
}
