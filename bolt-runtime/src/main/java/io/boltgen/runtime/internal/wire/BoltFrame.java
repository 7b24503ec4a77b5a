package io.boltgen.runtime.internal.wire;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * One decoded Bolt frame: its fixed header fields, and a retained slice of the inbound buffer holding the whole
 * frame, from which {@link #className()}, {@link #headers()} and {@link #content()} are sliced without
 * copying.
 *
 * <p>Ownership: whoever receives a frame owns one reference and must {@link #release()} it exactly once;
 * slices taken from it are valid only until then. Not thread-safe, but safe to hand from the IO thread to
 * one other thread.
 */
public final class BoltFrame {

  private final byte protocolCode;
  private final byte version;
  private final byte type;
  private final short cmdCode;
  private final byte commandVersion;
  private final int requestId;
  private final byte codec;
  private final byte switchFlags;
  private final int timeout;
  private final short status;
  private final int classLength;
  private final int headersLength;
  private final int contentLength;
  private final int bodyOffset;
  private final long arrivalNanos;
  private final ByteBuf buffer;

  BoltFrame(
      byte protocolCode,
      byte version,
      byte type,
      short cmdCode,
      byte commandVersion,
      int requestId,
      byte codec,
      byte switchFlags,
      int timeout,
      short status,
      int classLength,
      int headersLength,
      int contentLength,
      int bodyOffset,
      long arrivalNanos,
      ByteBuf buffer) {
    this.protocolCode = protocolCode;
    this.version = version;
    this.type = type;
    this.cmdCode = cmdCode;
    this.commandVersion = commandVersion;
    this.requestId = requestId;
    this.codec = codec;
    this.switchFlags = switchFlags;
    this.timeout = timeout;
    this.status = status;
    this.classLength = classLength;
    this.headersLength = headersLength;
    this.contentLength = contentLength;
    this.bodyOffset = bodyOffset;
    this.arrivalNanos = arrivalNanos;
    this.buffer = buffer;
  }

  /** 1 (V1) or 2 (V2). */
  public byte protocolCode() {
    return protocolCode;
  }

  /** The V2 protocol version (1 or 2); 0 for V1. */
  public byte version() {
    return version;
  }

  /** {@link Bolt#TYPE_RESPONSE}, {@link Bolt#TYPE_REQUEST} or {@link Bolt#TYPE_ONEWAY}. */
  public byte type() {
    return type;
  }

  /** {@link Bolt#CMD_HEARTBEAT}, {@link Bolt#CMD_REQUEST} or {@link Bolt#CMD_RESPONSE}. */
  public short cmdCode() {
    return cmdCode;
  }

  /** The command version byte (1 from every known peer). */
  public byte commandVersion() {
    return commandVersion;
  }

  /** The request id (a response carries its request's). */
  public int requestId() {
    return requestId;
  }

  /** The serializer id of the content. */
  public byte codec() {
    return codec;
  }

  /** The V2 switch byte; 0 for V1. */
  public byte switchFlags() {
    return switchFlags;
  }

  /** The caller's timeout in ms (requests; -1 for oneway and heartbeats); 0 for responses. */
  public int timeout() {
    return timeout;
  }

  /** The response status (responses only; 0 for requests). */
  public short status() {
    return status;
  }

  /** Whether this is a request, a oneway request or a heartbeat. */
  public boolean isRequest() {
    return type != Bolt.TYPE_RESPONSE;
  }

  /** Whether this is a oneway request. */
  public boolean isOneway() {
    return type == Bolt.TYPE_ONEWAY;
  }

  /** Whether this is a heartbeat or a heartbeat ack. */
  public boolean isHeartbeat() {
    return cmdCode == Bolt.CMD_HEARTBEAT;
  }

  /** Whether a CRC32 trailer ended this frame (it was verified when decoded). */
  public boolean hasCrc() {
    return Bolt.hasCrc(protocolCode, version, switchFlags);
  }

  /** Length of the className bytes. */
  public int classLength() {
    return classLength;
  }

  /** Length of the header entries (the SOFARPC key/value map), in bytes. */
  public int headersLength() {
    return headersLength;
  }

  /** Length of the content bytes. */
  public int contentLength() {
    return contentLength;
  }

  /** The endpoint clock's time when the read that delivered this frame was decoded. */
  public long arrivalNanos() {
    return arrivalNanos;
  }

  /** The className bytes (a slice, valid until {@link #release()}). */
  public ByteBuf className() {
    return buffer.slice(bodyOffset, classLength);
  }

  /** Copies the className bytes into {@code dst} from index 0 (it must have room for {@link #classLength()}). */
  public void copyClassName(byte[] dst) {
    buffer.getBytes(bodyOffset, dst, 0, classLength);
  }

  /** The className decoded as UTF-8. */
  public String classNameString() {
    return buffer.toString(bodyOffset, classLength, StandardCharsets.UTF_8);
  }

  /**
   * At most the first {@code maxBytes} bytes of the className decoded as UTF-8 (for log lines: a peer may
   * send a className of 32 KiB). A multi-byte character cut at the end becomes a replacement character.
   */
  public String classNamePreview(int maxBytes) {
    return buffer.toString(bodyOffset, Math.min(classLength, maxBytes), StandardCharsets.UTF_8);
  }

  /** The encoded header entries (a slice, valid until {@link #release()}). */
  public ByteBuf headers() {
    return buffer.slice(bodyOffset + classLength, headersLength);
  }

  /** The content bytes (a slice, valid until {@link #release()}). */
  public ByteBuf content() {
    return buffer.slice(bodyOffset + classLength + headersLength, contentLength);
  }

  /** Releases the frame's reference to the inbound buffer. */
  public void release() {
    buffer.release();
  }

  @Override
  public String toString() {
    return "BoltFrame{proto=" + protocolCode + ", ver=" + version + ", type=" + type + ", cmd=" + cmdCode
        + ", id=" + requestId + ", codec=" + codec + ", switch=" + switchFlags
        + (isRequest() ? ", timeout=" + timeout : ", status=" + status)
        + ", class=" + classLength + ", headers=" + headersLength + ", content=" + contentLength + '}';
  }
}
