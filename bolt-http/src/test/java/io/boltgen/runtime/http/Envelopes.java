package io.boltgen.runtime.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Connect's envelopes as the byte-level tests write and read them: a flag byte (0 a message, 1 compressed, 2 the end
 * of the stream), the message's length in 4 bytes (big-endian), the message.
 */
final class Envelopes {

  private Envelopes() {}

  /** One envelope of a stream's body: its flags, then its bytes. */
  static final class Envelope {
    private final int flags;
    private final byte[] bytes;

    Envelope(int flags, byte[] bytes) {
      this.flags = flags;
      this.bytes = bytes.clone();
    }

    int flags() {
      return flags;
    }

    byte[] bytes() {
      return bytes.clone();
    }

    String text() {
      return new String(bytes, StandardCharsets.UTF_8);
    }
  }

  /** {@code message} in one envelope with {@code flags}. */
  static byte[] envelope(int flags, byte[] message) {
    return ByteBuffer.allocate(5 + message.length).put((byte) flags).putInt(message.length).put(message).array();
  }

  /** Every envelope of {@code body}, in order; fails if it ends inside one. */
  static List<Envelope> envelopes(byte[] body) {
    List<Envelope> all = new ArrayList<>();
    ByteBuffer in = ByteBuffer.wrap(body);
    while (in.hasRemaining()) {
      int flags = in.get() & 0xff;
      byte[] bytes = new byte[in.getInt()];
      in.get(bytes);
      all.add(new Envelope(flags, bytes));
    }
    return all;
  }

  /** The JSON of an answer that is only the end of its stream: 200, one envelope, flag 2. */
  static String onlyEnd(RawHttp.Response answer) {
    assertThat(answer.status()).isEqualTo(200);
    List<Envelope> envelopes = envelopes(answer.body());
    assertThat(envelopes).hasSize(1);
    assertThat(envelopes.get(0).flags()).isEqualTo(2);
    return envelopes.get(0).text();
  }

  /** The parts, one after another. */
  static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      out.writeBytes(part);
    }
    return out.toByteArray();
  }
}
