package io.boltgen.runtime.internal.wire;

import io.boltgen.runtime.ResponseStatus;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.util.concurrent.Ticker;
import java.util.List;

/**
 * Splits the inbound byte stream into Bolt frames: this is where bytes are decoded. Each decode pass takes
 * every whole frame in the cumulated buffer and passes them on as one {@link FrameBatch}, each frame a
 * retained slice of the buffer (no copy). A partial frame stays buffered until the rest arrives: reads are
 * copied into one buffer until {@value #COMPOSITE_AFTER} bytes of it are there, and kept as they are after
 * that (see {@link #COMPOSITE_AFTER}), so a frame of a megabyte is copied at most {@value #COMPOSITE_AFTER}
 * bytes' worth before it is decoded.
 *
 * <p>Anything that is not valid Bolt throws a {@link BoltFrameException} naming the reason (frames decoded
 * before it in the same pass are still passed on first); from then on the decoder discards all input,
 * so the handler that closes the connection logs one line, not one per read.
 *
 * <p>One instance per channel.
 *
 * <p>Not thread-safe: one per channel, confined to its event loop (its state is read by the internals'
 * {@code FrameDeadline} there too).
 */
public final class FrameDecoder extends ByteToMessageDecoder {

  /**
   * Once this many bytes of an incomplete frame are buffered, further reads are added to the buffer as
   * components instead of copied into it: the rest of a large frame is never copied before its content is
   * decoded. Below it, reads are merged into one buffer (cheaper to decode small frames from).
   */
  static final int COMPOSITE_AFTER = 64 * 1024;

  private final int maxFrameLength;
  private final Ticker ticker;
  private final byte[] fixedHeader = new byte[Bolt.V2_REQUEST_HEADER];
  private boolean failed;
  private boolean composite;
  private long framesDecoded;

  /** A decoder that refuses frames longer than {@code maxFrameLength} bytes (header and CRC included). */
  public FrameDecoder(int maxFrameLength) {
    this(maxFrameLength, Ticker.systemTicker());
  }

  /** A decoder stamping each read's frames with {@code ticker}'s time of arrival. */
  public FrameDecoder(int maxFrameLength, Ticker ticker) {
    this.ticker = ticker;
    if (maxFrameLength < Bolt.V2_REQUEST_HEADER) {
      throw new IllegalArgumentException("maxFrameLength too small: " + maxFrameLength);
    }
    this.maxFrameLength = maxFrameLength;
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    if (failed) {
      in.skipBytes(in.readableBytes());
      return;
    }
    FrameBatch batch = null;
    long arrivalNanos = 0;
    try {
      for (;;) {
        if (batch == null) {
          arrivalNanos = ticker.nanoTime();
        }
        BoltFrame frame = decodeFrame(in, arrivalNanos, maxFrameLength, fixedHeader);
        if (frame == null) {
          break;
        }
        if (batch == null) {
          batch = new FrameBatch(in.isReadable() ? 8 : 1);
        }
        batch.add(frame);
        framesDecoded++;
      }
    } catch (BoltFrameException e) {
      failed = true;
      in.skipBytes(in.readableBytes());
      if (batch != null) {
        out.add(batch);
      }
      throw e;
    }
    if (batch != null) {
      out.add(batch);
    }
    boolean large = in.readableBytes() >= COMPOSITE_AFTER;
    if (large != composite) {
      composite = large;
      setCumulator(large ? COMPOSITE_CUMULATOR : MERGE_CUMULATOR);
    }
  }

  /** Bytes received of a frame that is not complete yet: 0 between frames. IO thread only. */
  public int pendingBytes() {
    return internalBuffer().readableBytes();
  }

  /** The bytes buffered now (those of an incomplete frame). IO thread only. */
  ByteBuf buffered() {
    return internalBuffer();
  }

  /** Whole frames decoded so far on this channel. IO thread only. */
  public long framesDecoded() {
    return framesDecoded;
  }

  /** The protocol code of the incomplete frame buffered now (0 when none is). IO thread only. */
  public byte pendingProtocolCode() {
    ByteBuf in = internalBuffer();
    return in.isReadable() ? in.getByte(in.readerIndex()) : 0;
  }

  /** The V2 version of the incomplete frame buffered now (0 when none is, or for V1). IO thread only. */
  public byte pendingVersion() {
    ByteBuf in = internalBuffer();
    return in.readableBytes() >= 2 && in.getByte(in.readerIndex()) == Bolt.PROTOCOL_V2
        ? in.getByte(in.readerIndex() + 1) : 0;
  }

  /**
   * The request id of the incomplete frame buffered now, when enough of it arrived to tell that it is a
   * request (not oneway, not a heartbeat) and to read its id; otherwise 0. IO thread only.
   */
  public int pendingRequestId() {
    ByteBuf in = internalBuffer();
    int start = in.readerIndex();
    int readable = in.readableBytes();
    if (readable < Bolt.V1_REQUEST_HEADER) {
      return 0;
    }
    byte protocolCode = in.getByte(start);
    int typeOffset = protocolCode == Bolt.PROTOCOL_V1 ? 1 : protocolCode == Bolt.PROTOCOL_V2 ? 2 : -1;
    if (typeOffset < 0 || in.getByte(start + typeOffset) != Bolt.TYPE_REQUEST
        || in.getShort(start + typeOffset + 1) != Bolt.CMD_REQUEST) {
      return 0;
    }
    return in.getInt(start + typeOffset + 4);
  }

  /**
   * Decodes one frame starting at {@code in}'s reader index, or returns {@code null} (reading nothing)
   * when the frame is not complete yet. {@code scratch} holds at least the largest header (24 bytes).
   *
   * @throws BoltFrameException if the bytes are not a valid Bolt frame
   */
  static BoltFrame decodeFrame(ByteBuf in, long arrivalNanos, int maxFrameLength, byte[] scratch) {
    final int start = in.readerIndex();
    final int readable = in.readableBytes();
    if (readable < 1) {
      return null;
    }
    final byte protocolCode = in.getByte(start);
    byte version = 0;
    int offset;
    if (protocolCode == Bolt.PROTOCOL_V1) {
      offset = start + 1;
    } else if (protocolCode == Bolt.PROTOCOL_V2) {
      if (readable < 2) {
        return null;
      }
      version = in.getByte(start + 1);
      if (version != 1 && version != 2) {
        throw new BoltFrameException("unsupported RpcProtocolV2 version " + version);
      }
      offset = start + 2;
    } else {
      throw new BoltFrameException(String.format("unknown protocol code 0x%02x", protocolCode & 0xff));
    }
    if (readable < offset - start + 1) {
      return null;
    }
    final byte type = in.getByte(offset);
    final int offsetAfterType = offset + 1;
    final boolean request;
    if (type == Bolt.TYPE_RESPONSE) {
      request = false;
    } else if (type == Bolt.TYPE_REQUEST || type == Bolt.TYPE_ONEWAY) {
      request = true;
    } else {
      throw new BoltFrameException(String.format("unknown frame type 0x%02x", type & 0xff));
    }
    final int fixedHeaderLength = Bolt.fixedHeaderLength(protocolCode, request);
    if (readable < fixedHeaderLength) {
      return null;
    }
    // one bounds-checked copy of the fixed header, then plain array reads
    final byte[] h = scratch;
    in.getBytes(start, h, 0, fixedHeaderLength);
    offset = offsetAfterType - start; // from here on, an index into the fixed header copy
    final short cmdCode = getShort(h, offset);
    if (request ? cmdCode != Bolt.CMD_REQUEST && cmdCode != Bolt.CMD_HEARTBEAT
        : cmdCode != Bolt.CMD_RESPONSE && cmdCode != Bolt.CMD_HEARTBEAT) {
      throw new BoltFrameException("unknown command code " + cmdCode + " in a " + (request ? "request" : "response"));
    }
    offset += 2;
    final byte commandVersion = h[offset++];
    final int requestId = getInt(h, offset);
    offset += 4;
    final byte codec = h[offset++];
    byte switchFlags = 0;
    if (protocolCode == Bolt.PROTOCOL_V2) {
      switchFlags = h[offset++];
      if (switchFlags < 0) {
        throw new BoltFrameException("invalid switch byte " + switchFlags);
      }
    }
    int timeout = 0;
    short status = 0;
    if (request) {
      timeout = getInt(h, offset);
      offset += 4;
    } else {
      status = getShort(h, offset);
      offset += 2;
      if (ResponseStatus.fromCode(status) == null) {
        throw new BoltFrameException("unknown response status " + status);
      }
    }
    final short classLength = getShort(h, offset);
    final short headersLength = getShort(h, offset + 2);
    final int contentLength = getInt(h, offset + 4);
    if (classLength < 0 || headersLength < 0 || contentLength < 0) {
      throw new BoltFrameException("negative length (class " + classLength + ", headers " + headersLength
          + ", content " + contentLength + ")");
    }
    final boolean crc = Bolt.hasCrc(protocolCode, version, switchFlags);
    final long total = (long) fixedHeaderLength + classLength + headersLength + contentLength + (crc ? Bolt.CRC_LENGTH : 0);
    if (total > maxFrameLength) {
      throw new BoltFrameException("frame of " + total + " bytes exceeds the limit of " + maxFrameLength);
    }
    if (readable < total) {
      return null;
    }
    final int frameLength = (int) total;
    if (crc) {
      int expected = in.getInt(start + frameLength - Bolt.CRC_LENGTH);
      int actual = Crc32.of(in, start, frameLength - Bolt.CRC_LENGTH);
      if (expected != actual) {
        throw new BoltFrameException(String.format(
            "CRC32 mismatch on request id %d: frame says %08x, bytes give %08x", requestId, expected, actual));
      }
    }
    ByteBuf frameBytes = in.retainedSlice(start, frameLength);
    in.skipBytes(frameLength);
    return new BoltFrame(protocolCode, version, type, cmdCode, commandVersion, requestId, codec, switchFlags,
        timeout, status, classLength, headersLength, contentLength, fixedHeaderLength, arrivalNanos, frameBytes);
  }

  private static short getShort(byte[] b, int i) {
    return (short) ((b[i] << 8) | (b[i + 1] & 0xff));
  }

  private static int getInt(byte[] b, int i) {
    return (b[i] << 24) | ((b[i + 1] & 0xff) << 16) | ((b[i + 2] & 0xff) << 8) | (b[i + 3] & 0xff);
  }
}
