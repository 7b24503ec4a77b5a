package io.boltgen.runtime.internal.http;

import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.call.ServerStream;
import io.boltgen.runtime.call.StatusCode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.zip.GZIPInputStream;

/**
 * The length-prefixed messages of one request body, as its bytes arrive: gRPC's and gRPC-Web's, and the envelopes of
 * Connect's streaming protocol, which are the same: a flag byte (0, or 1 for a message compressed with the encoding
 * the request's headers name), a four-byte big-endian length, the message. A length over the limit is refused as soon
 * as its prefix arrives, before its bytes are held; a compressed message is inflated (gzip) to at most the limit. A
 * request of one message holds one; a second is refused. The messages of a streamed request wait here, whole, until
 * the call takes them ({@link #take}). Not API.
 *
 * <p>Not thread-safe: confined to the stream's IO thread.
 */
public final class LengthPrefixedMessages {

  /** The bytes before each message: its flag and its length. */
  public static final int PREFIX_BYTES = 5;

  private final ByteBufAllocator alloc;
  private final int maxMessageBytes;
  private final boolean gzip;
  private final boolean oneMessage;
  private final String encodingHeader;
  // the bytes of the message being read, its prefix first; null between messages
  private ByteBuf pending;
  // whole messages, not yet taken; whether one was taken already
  private final Queue<ByteBuf> ready = new ArrayDeque<>();
  private boolean taken;

  /**
   * The messages of a request, at most {@code maxMessageBytes} each; just one unless {@code oneMessage} is false;
   * compressed ones are gzip if {@code gzip}, else refused, as the request's {@code encodingHeader} said.
   */
  public LengthPrefixedMessages(ByteBufAllocator alloc, int maxMessageBytes, boolean gzip, boolean oneMessage,
      String encodingHeader) {
    this.alloc = alloc;
    this.maxMessageBytes = maxMessageBytes;
    this.gzip = gzip;
    this.oneMessage = oneMessage;
    this.encodingHeader = encodingHeader;
  }

  /** Why a request is refused, and with which code. */
  public record Refusal(StatusCode code, String why) {}

  /**
   * Reads {@code data} (not released here): the refusal, or {@code null} while all is well. A message that lies whole
   * in {@code data} is kept as a retained slice of it; only one cut across reads is copied together.
   */
  public Refusal add(ByteBuf data) {
    while (data.isReadable()) {
      if (pending == null && data.readableBytes() >= PREFIX_BYTES) {
        int at = data.readerIndex();
        Refusal refusal = checkPrefix(data.getUnsignedByte(at), data.getUnsignedInt(at + 1));
        if (refusal != null) {
          return refusal;
        }
        long size = PREFIX_BYTES + data.getUnsignedInt(at + 1);
        if (size <= data.readableBytes()) {
          refusal = complete(data.readRetainedSlice((int) size));
          if (refusal != null) {
            return refusal;
          }
          continue;
        }
      }
      if (pending == null) {
        pending = alloc.buffer(PREFIX_BYTES);
      }
      if (pending.readableBytes() < PREFIX_BYTES) {
        pending.writeBytes(data, Math.min(PREFIX_BYTES - pending.readableBytes(), data.readableBytes()));
        if (pending.readableBytes() < PREFIX_BYTES) {
          return null;
        }
        Refusal refusal = checkPrefix(pending.getUnsignedByte(0), pending.getUnsignedInt(1));
        if (refusal != null) {
          return refusal;
        }
      }
      int length = pending.getInt(1);
      int missing = PREFIX_BYTES + length - pending.readableBytes();
      int take = Math.min(missing, data.readableBytes());
      pending.ensureWritable(take);
      pending.writeBytes(data, take);
      if (take == missing) {
        ByteBuf whole = pending;
        pending = null;
        Refusal refusal = complete(whole);
        if (refusal != null) {
          return refusal;
        }
      }
    }
    return null;
  }

  /** Whether a message with this prefix may be read: the refusal, or {@code null}. */
  private Refusal checkPrefix(int flag, long length) {
    if (flag > 1) {
      return new Refusal(StatusCode.INTERNAL, "a message's flag byte is " + flag + ": a request's are 0 and 1");
    }
    if (flag == 1 && !gzip) {
      return new Refusal(StatusCode.INTERNAL, "a message is flagged compressed, but the request names no "
          + encodingHeader + " to read it with");
    }
    if (length > maxMessageBytes) {
      return new Refusal(StatusCode.RESOURCE_EXHAUSTED, "a message of " + length
          + " bytes is over the server's limit of " + maxMessageBytes + " bytes");
    }
    if (oneMessage && (taken || !ready.isEmpty())) {
      return new Refusal(StatusCode.INTERNAL, "a second request message: the method takes one");
    }
    return null;
  }

  /** {@code whole} (taken; its prefix first) is a whole message: kept, inflated first if compressed. */
  private Refusal complete(ByteBuf whole) {
    boolean compressed = whole.getUnsignedByte(0) == 1;
    whole.skipBytes(PREFIX_BYTES);
    if (!compressed) {
      ready.add(whole);
      return null;
    }
    try {
      ByteBuf inflated = inflate(whole);
      if (inflated == null) {
        return new Refusal(StatusCode.RESOURCE_EXHAUSTED, "a message inflates to more than the server's limit of "
            + maxMessageBytes + " bytes");
      }
      ready.add(inflated);
      return null;
    } catch (IOException e) {
      return new Refusal(StatusCode.INTERNAL, "a gzip message could not be inflated: " + e.getMessage());
    } finally {
      whole.release();
    }
  }

  /** {@code compressed} inflated, or {@code null} when it inflates past the limit. */
  private ByteBuf inflate(ByteBuf compressed) throws IOException {
    ByteBuf out = alloc.buffer(Math.min(maxMessageBytes, Math.max(256, compressed.readableBytes() * 4)));
    try (InputStream in = new GZIPInputStream(new ByteBufInputStream(compressed))) {
      while (true) {
        int room = maxMessageBytes + 1 - out.readableBytes();
        out.ensureWritable(Math.min(room, 8192));
        int read = out.writeBytes(in, Math.min(room, out.writableBytes()));
        if (read < 0) {
          return out;
        }
        if (out.readableBytes() > maxMessageBytes) {
          out.release();
          return null;
        }
      }
    } catch (IOException | RuntimeException e) {
      out.release();
      throw e;
    }
  }

  /** The request ended: the refusal if it ended inside a message, else {@code null}. */
  public Refusal end() {
    if (pending != null) {
      String why = pending.readableBytes() < PREFIX_BYTES
          ? "the request ended inside a message's prefix, after " + pending.readableBytes() + " of its 5 bytes"
          : "the request ended inside a message: its prefix says " + pending.getInt(1) + " bytes, "
              + (pending.readableBytes() - PREFIX_BYTES) + " arrived";
      return new Refusal(StatusCode.INTERNAL, why);
    }
    return null;
  }

  /** The request's next whole message, now the caller's to release; {@code null} if none is waiting. */
  public ByteBuf take() {
    ByteBuf message = ready.poll();
    taken |= message != null;
    return message;
  }

  /** Whether no whole message is waiting to be taken. */
  public boolean isEmpty() {
    return ready.isEmpty();
  }

  /** Frees whatever is held. */
  public void release() {
    if (pending != null) {
      pending.release();
      pending = null;
    }
    for (ByteBuf message = ready.poll(); message != null; message = ready.poll()) {
      message.release();
    }
  }

  /** One whole message of a request, as the call is told it: decoded on the call's thread, or released unread. */
  public static final class Message implements ServerStream.Message {
    private final MethodDescriptor<?, ?> method;
    private final boolean json;
    private ByteBuf bytes;

    /** {@code bytes} (taken over) of a request of {@code method}, JSON or binary protobuf. */
    public Message(ByteBuf bytes, MethodDescriptor<?, ?> method, boolean json) {
      this.bytes = bytes;
      this.method = method;
      this.json = json;
    }

    @Override
    public boolean decodeOnArrival() {
      return false;
    }

    @Override
    public Object decode() {
      ByteBuf b = bytes;
      bytes = null;
      return MessageForms.decodeRequest(method, json, b);
    }

    @Override
    public void release() {
      ByteBuf b = bytes;
      bytes = null;
      if (b != null) {
        b.release();
      }
    }
  }
}
