package io.boltgen.runtime.internal;

import io.boltgen.runtime.EchoService;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.testing.RawFrames;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.CRC32;

/**
 * Bolt frames for {@link FrameFuzz}, from one seed: valid frames of every kind the server meets (requests
 * in V1, V2 and V2 with CRC, oneways, heartbeats, headers, an unknown className, a foreign codec, a stray
 * response, the request the generated Order codec wrote), and mutations of them (bit flips, interesting
 * values in the length, id and timeout fields, bytes inserted, removed or cut off, two frames spliced). Half
 * of the mutated V2 frames with a CRC get a CRC recomputed over their new bytes, so that the mutation gets
 * past the CRC check and reaches the decoder of the content. The same seed gives the same frames.
 *
 * <p>Not thread-safe: one per fuzzing thread.
 */
final class FrameMutator {

  private static final int[] INTERESTING_INTS = {0, 1, -1, 7, 8, 16, 22, 24, 127, 128, 255, 256, 32767, 32768,
      65535, 65536, Integer.MAX_VALUE, Integer.MIN_VALUE, 1 << 24, (1 << 24) + 1};
  private static final byte[] INTERESTING_BYTES = {0, 1, 2, 0x7f, (byte) 0x80, (byte) 0xff, 0x0b, 0x0a};

  private final Random random;
  private final List<byte[]> seeds;
  private int nextId = 1;

  /** Frames from {@code seed}. */
  FrameMutator(long seed) {
    this.random = new Random(seed);
    this.seeds = seeds();
  }

  /**
   * The valid frames mutations start from: requests to {@link EchoService}'s raw-bytes echo and sink, and
   * the order request the generated codec wrote ({@link FuzzOrders}), whose content the server decodes as
   * protobuf.
   */
  static List<byte[]> seeds() {
    byte[] payload = new byte[100];
    Arrays.fill(payload, (byte) 'p');
    byte[] order = FuzzOrders.capturedContent();
    MethodDescriptor<byte[], byte[]> echo = EchoService.ECHO;
    List<byte[]> s = new ArrayList<>();
    s.add(request(echo, RawFrames.PROTOCOL_V2, (byte) 2, RawFrames.SWITCH_CRC, RawFrames.TYPE_REQUEST, payload,
        Map.of()));
    s.add(request(echo, RawFrames.PROTOCOL_V2, (byte) 1, (byte) 0, RawFrames.TYPE_REQUEST, payload, Map.of()));
    s.add(request(echo, RawFrames.PROTOCOL_V1, (byte) 0, (byte) 0, RawFrames.TYPE_REQUEST, payload, Map.of()));
    // a oneway frame for a request-response method, and one for a oneway method
    s.add(request(echo, RawFrames.PROTOCOL_V2, (byte) 2, RawFrames.SWITCH_CRC, RawFrames.TYPE_ONEWAY, payload,
        Map.of()));
    s.add(request(EchoService.SINK, RawFrames.PROTOCOL_V1, (byte) 0, (byte) 0, RawFrames.TYPE_ONEWAY, payload,
        Map.of()));
    s.add(request(echo, RawFrames.PROTOCOL_V2, (byte) 2, (byte) 0, RawFrames.TYPE_REQUEST, payload,
        Map.of("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "tier", "gold")));
    s.add(FuzzOrders.capturedRequest());
    s.add(request(FuzzOrders.ECHO_ORDER, RawFrames.PROTOCOL_V1, (byte) 0, (byte) 0, RawFrames.TYPE_REQUEST, order,
        Map.of()));
    s.add(RawFrames.heartbeat(RawFrames.PROTOCOL_V1, (byte) 0, 3));
    s.add(RawFrames.heartbeat(RawFrames.PROTOCOL_V2, (byte) 2, 4));
    s.add(RawFrames.request(RawFrames.PROTOCOL_V2, (byte) 2, RawFrames.SWITCH_CRC, RawFrames.TYPE_REQUEST, 5, 3000,
        RawFrames.CODEC_PROTOBUF, "no.such.Service:1.0/nothing", Map.of(), payload));
    s.add(RawFrames.request(RawFrames.PROTOCOL_V2, (byte) 2, (byte) 0, RawFrames.TYPE_REQUEST, 6, 3000,
        RawFrames.CODEC_HESSIAN2, echo.wireName(), Map.of(), payload));
    s.add(RawFrames.response(RawFrames.PROTOCOL_V2, (byte) 2, RawFrames.SWITCH_CRC, 7, RawFrames.CODEC_PROTOBUF,
        ResponseStatus.SUCCESS.code(), "", Map.of(), payload));
    return List.copyOf(s);
  }

  /** A request (or oneway) of {@code method} with {@code content} as it is on the wire. */
  private static byte[] request(MethodDescriptor<?, ?> method, byte protocolCode, byte version, byte switchFlags,
      byte type, byte[] content, Map<String, String> header) {
    return RawFrames.request(protocolCode, version, switchFlags, type, 1,
        type == RawFrames.TYPE_ONEWAY ? RawFrames.NO_TIMEOUT : 3000, method.requestMarshaller().codecId(),
        method.wireName(), header, content);
  }

  /** How many frames the next connection sends (1 to 30). */
  int framesPerConnection() {
    return 1 + random.nextInt(30);
  }

  /**
   * Whether the next connection sends only frames whose content is mutated (one in three): they pass the
   * frame decoder, so the server must decode garbage content, answer each one, and keep the connection.
   */
  boolean contentOnlyConnection() {
    return random.nextInt(3) == 0;
  }

  /**
   * A valid frame whose content bytes are partly random: the header, lengths and CRC (recomputed) are
   * right, so it reaches the content's decoder.
   */
  byte[] nextWithBadContent() {
    byte[] frame = seeds.get(random.nextInt(seeds.size())).clone();
    setRequestId(frame, nextId++);
    int header = RawFrames.fixedHeaderLength(frame[0],
        frame[frame[0] == RawFrames.PROTOCOL_V2 ? 2 : 1] != RawFrames.TYPE_RESPONSE);
    ByteBuffer b = ByteBuffer.wrap(frame);
    int lengths = header - 8;
    int content = b.getInt(lengths + 4);
    int contentStart = header + b.getShort(lengths) + b.getShort(lengths + 2);
    for (int i = 0, n = content == 0 ? 0 : 1 + random.nextInt(8); i < n; i++) {
      frame[contentStart + random.nextInt(content)] = (byte) random.nextInt(256);
    }
    fixCrc(frame);
    return frame;
  }

  /** The next frame: a valid one (a fresh request id) three times in ten, a mutated one otherwise. */
  byte[] next() {
    byte[] frame = seeds.get(random.nextInt(seeds.size())).clone();
    setRequestId(frame, nextId++);
    if (random.nextInt(10) < 3) {
      return frame;
    }
    int mutations = 1 + random.nextInt(3);
    for (int i = 0; i < mutations; i++) {
      frame = mutate(frame);
    }
    if (random.nextBoolean()) {
      fixCrc(frame);
    }
    return frame;
  }

  private byte[] mutate(byte[] f) {
    if (f.length == 0) {
      return new byte[] {(byte) random.nextInt(256)};
    }
    switch (random.nextInt(9)) {
      case 0 -> { // flip a few bits
        for (int i = 0, n = 1 + random.nextInt(4); i < n; i++) {
          f[random.nextInt(f.length)] ^= (byte) (1 << random.nextInt(8));
        }
        return f;
      }
      case 1 -> { // an interesting byte anywhere
        f[random.nextInt(f.length)] = INTERESTING_BYTES[random.nextInt(INTERESTING_BYTES.length)];
        return f;
      }
      case 2 -> { // an interesting value in a length, id or timeout field of the fixed header
        int[] fields = headerIntFields(f);
        int at = fields[random.nextInt(fields.length)];
        int value = INTERESTING_INTS[random.nextInt(INTERESTING_INTS.length)];
        if (at < 0 && -at + 2 <= f.length) {
          ByteBuffer.wrap(f).putShort(-at, (short) value);
        } else if (at >= 0 && at + 4 <= f.length) {
          ByteBuffer.wrap(f).putInt(at, value);
        }
        return f;
      }
      case 3 -> { // cut off the tail
        return Arrays.copyOf(f, random.nextInt(f.length));
      }
      case 4 -> { // insert random bytes
        int at = random.nextInt(f.length + 1);
        byte[] extra = new byte[1 + random.nextInt(16)];
        random.nextBytes(extra);
        byte[] out = new byte[f.length + extra.length];
        System.arraycopy(f, 0, out, 0, at);
        System.arraycopy(extra, 0, out, at, extra.length);
        System.arraycopy(f, at, out, at + extra.length, f.length - at);
        return out;
      }
      case 5 -> { // remove a range
        int at = random.nextInt(f.length);
        int n = 1 + random.nextInt(Math.min(16, f.length - at));
        byte[] out = new byte[f.length - n];
        System.arraycopy(f, 0, out, 0, at);
        System.arraycopy(f, at + n, out, at, f.length - at - n);
        return out;
      }
      case 6 -> { // the head of one frame, the tail of another
        byte[] other = seeds.get(random.nextInt(seeds.size()));
        int cut = random.nextInt(f.length);
        int from = random.nextInt(other.length);
        byte[] out = Arrays.copyOf(f, cut + other.length - from);
        System.arraycopy(other, from, out, cut, other.length - from);
        return out;
      }
      case 7 -> { // random bytes in the content, the header left alone (reaches the codecs)
        int start = Math.min(f.length - 1, 24 + random.nextInt(Math.max(1, f.length - 24)));
        for (int i = 0, n = 1 + random.nextInt(8); i < n; i++) {
          f[start + random.nextInt(f.length - start)] = (byte) random.nextInt(256);
        }
        return f;
      }
      default -> { // protocol code, version, type or command code replaced
        int at = random.nextInt(Math.min(5, f.length));
        f[at] = (byte) random.nextInt(256);
        return f;
      }
    }
  }

  /** Offsets of the header's int fields (request id, timeout or status, lengths); negative for shorts. */
  private static int[] headerIntFields(byte[] f) {
    boolean v2 = f[0] == RawFrames.PROTOCOL_V2;
    int id = v2 ? 6 : 5;
    int afterCodec = id + 5 + (v2 ? 1 : 0);
    boolean request = f.length > (v2 ? 2 : 1) && f[v2 ? 2 : 1] != RawFrames.TYPE_RESPONSE;
    int lengths = afterCodec + (request ? 4 : 2);
    return new int[] {id, request ? afterCodec : -afterCodec, -lengths, -(lengths + 2), lengths + 4};
  }

  private static void setRequestId(byte[] f, int id) {
    int at = f[0] == RawFrames.PROTOCOL_V2 ? 6 : 5;
    ByteBuffer.wrap(f).putInt(at, id);
  }

  /** Recomputes the CRC32 trailer of a V2 version-2 frame that has the CRC switch, if its lengths add up. */
  private static void fixCrc(byte[] f) {
    if (f.length < RawFrames.V2_REQUEST_HEADER || f[0] != RawFrames.PROTOCOL_V2 || f[1] != 2
        || (f[11] & RawFrames.SWITCH_CRC) == 0) {
      return;
    }
    boolean request = f[2] != RawFrames.TYPE_RESPONSE;
    int header = request ? RawFrames.V2_REQUEST_HEADER : RawFrames.V2_RESPONSE_HEADER;
    ByteBuffer b = ByteBuffer.wrap(f);
    int lengths = header - 8;
    long total = (long) header + b.getShort(lengths) + b.getShort(lengths + 2) + b.getInt(lengths + 4) + 4;
    if (total != f.length) {
      return;
    }
    CRC32 crc = new CRC32();
    crc.update(f, 0, f.length - 4);
    b.putInt(f.length - 4, (int) crc.getValue());
  }
}
