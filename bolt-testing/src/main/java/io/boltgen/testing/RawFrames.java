package io.boltgen.testing;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.zip.CRC32;

/**
 * Bolt frames as plain bytes, for tests and tools that play a raw peer: written field by field from the
 * protocol's layout (docs/wire-format.md), independently of the runtime's own encoder and decoder, so that
 * each checks the other.
 *
 * <p>Layout: protocol code, version (V2 only), type, cmdCode (2), command version, request id (4), codec,
 * switch flags (V2 only), timeout (4, requests) or status (2, responses), className length (2), header
 * length (2), content length (4), then className, header entries (int-length-prefixed UTF-8 key and value
 * pairs) and content, then a CRC32 of everything before it when a V2 frame of version 2 has the CRC switch on.
 */
public final class RawFrames {

  /** Protocol codes. */
  public static final byte PROTOCOL_V1 = 1;
  public static final byte PROTOCOL_V2 = 2;

  /** Frame types. */
  public static final byte TYPE_RESPONSE = 0;
  public static final byte TYPE_REQUEST = 1;
  public static final byte TYPE_ONEWAY = 2;

  /** Command codes (Bolt's {@code cmdCode}). */
  public static final short CMD_HEARTBEAT = 0;
  public static final short CMD_REQUEST = 1;
  public static final short CMD_RESPONSE = 2;

  /** The V2 switch flag that turns the CRC on. */
  public static final byte SWITCH_CRC = 1;

  /** Codec ids. */
  public static final byte CODEC_HESSIAN2 = 1;
  public static final byte CODEC_PROTOBUF = 11;

  /** The timeout of oneway requests and heartbeats. */
  public static final int NO_TIMEOUT = -1;

  /** Fixed header lengths. */
  public static final int V1_REQUEST_HEADER = 22;
  public static final int V1_RESPONSE_HEADER = 20;
  public static final int V2_REQUEST_HEADER = 24;
  public static final int V2_RESPONSE_HEADER = 22;

  private RawFrames() {}

  /** The fixed header length of a frame of {@code protocolCode}; {@code request} for requests and oneways. */
  public static int fixedHeaderLength(byte protocolCode, boolean request) {
    if (protocolCode == PROTOCOL_V2) {
      return request ? V2_REQUEST_HEADER : V2_RESPONSE_HEADER;
    }
    return request ? V1_REQUEST_HEADER : V1_RESPONSE_HEADER;
  }

  /** A V2 request (version 2, CRC on, protobuf codec) for {@code className}. */
  public static byte[] request(String className, int requestId, byte[] content, int timeoutMillis) {
    return request(PROTOCOL_V2, (byte) 2, SWITCH_CRC, TYPE_REQUEST, requestId, timeoutMillis, CODEC_PROTOBUF,
        className, Map.of(), content);
  }

  /** A request or oneway ({@code type}) with every field chosen by the caller. */
  public static byte[] request(byte protocolCode, byte version, byte switchFlags, byte type, int requestId,
      int timeoutMillis, byte codec, String className, Map<String, String> headers, byte[] content) {
    return frame(protocolCode, version, switchFlags, type, CMD_REQUEST, requestId, codec, timeoutMillis,
        className, headers, content);
  }

  /** A response with every field chosen by the caller. */
  public static byte[] response(byte protocolCode, byte version, byte switchFlags, int requestId, byte codec,
      int status, String className, Map<String, String> headers, byte[] content) {
    return frame(protocolCode, version, switchFlags, TYPE_RESPONSE, CMD_RESPONSE, requestId, codec, status,
        className, headers, content);
  }

  /** A heartbeat as SOFABolt sends it: command 0, codec 1, no timeout, switch 0, no body. */
  public static byte[] heartbeat(byte protocolCode, byte version, int requestId) {
    return frame(protocolCode, version, (byte) 0, TYPE_REQUEST, CMD_HEARTBEAT, requestId, CODEC_HESSIAN2,
        NO_TIMEOUT, "", Map.of(), new byte[0]);
  }

  private static byte[] frame(byte protocolCode, byte version, byte switchFlags, byte type, short cmdCode,
      int requestId, byte codec, int timeoutOrStatus, String className, Map<String, String> headers,
      byte[] content) {
    return frame(protocolCode, version, switchFlags, type, cmdCode, (byte) 1, requestId, codec, timeoutOrStatus,
        className.getBytes(StandardCharsets.UTF_8), headers(headers), content);
  }

  /**
   * Any frame, field for field: {@code timeoutOrStatus} is written as a request's 4-byte timeout unless
   * {@code type} is {@link #TYPE_RESPONSE}, then as a 2-byte status; {@code headerBytes} are the encoded
   * header entries.
   */
  public static byte[] frame(byte protocolCode, byte version, byte switchFlags, byte type, short cmdCode,
      byte commandVersion, int requestId, byte codec, int timeoutOrStatus, byte[] classBytes, byte[] headerBytes,
      byte[] content) {
    boolean v2 = protocolCode == PROTOCOL_V2;
    boolean request = type != TYPE_RESPONSE;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeByte(protocolCode);
      if (v2) {
        out.writeByte(version);
      }
      out.writeByte(type);
      out.writeShort(cmdCode);
      out.writeByte(commandVersion);
      out.writeInt(requestId);
      out.writeByte(codec);
      if (v2) {
        out.writeByte(switchFlags);
      }
      if (request) {
        out.writeInt(timeoutOrStatus);
      } else {
        out.writeShort(timeoutOrStatus);
      }
      out.writeShort(classBytes.length);
      out.writeShort(headerBytes.length);
      out.writeInt(content.length);
      out.write(classBytes);
      out.write(headerBytes);
      out.write(content);
      if (v2 && version == 2 && (switchFlags & SWITCH_CRC) != 0) {
        CRC32 crc = new CRC32();
        crc.update(bytes.toByteArray());
        out.writeInt((int) crc.getValue());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  private static byte[] headers(Map<String, String> headers) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      for (Map.Entry<String, String> e : headers.entrySet()) {
        for (String s : new String[] {e.getKey(), e.getValue()}) {
          byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
          out.writeInt(utf8.length);
          out.write(utf8);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  /** The next whole frame's bytes from a blocking stream, or {@code null} at its end. */
  public static byte[] read(InputStream stream) throws IOException {
    DataInputStream in = new DataInputStream(stream);
    int first = in.read();
    if (first < 0) {
      return null;
    }
    boolean v2 = first == PROTOCOL_V2;
    byte[] fixed = new byte[v2 ? 2 : 1];
    in.readFully(fixed);
    int type = v2 ? fixed[1] : fixed[0];
    int headerLength = fixedHeaderLength((byte) first, type != TYPE_RESPONSE);
    byte[] header = new byte[headerLength];
    header[0] = (byte) first;
    System.arraycopy(fixed, 0, header, 1, fixed.length);
    in.readFully(header, 1 + fixed.length, headerLength - 1 - fixed.length);
    ByteBuffer h = ByteBuffer.wrap(header);
    int lengths = headerLength - 8;
    int classLength = h.getShort(lengths);
    int headerBytes = h.getShort(lengths + 2);
    int contentLength = h.getInt(lengths + 4);
    boolean crc = v2 && header[1] == 2 && (header[11] & SWITCH_CRC) != 0;
    byte[] frame = new byte[headerLength + classLength + headerBytes + contentLength + (crc ? 4 : 0)];
    System.arraycopy(header, 0, frame, 0, headerLength);
    try {
      in.readFully(frame, headerLength, frame.length - headerLength);
    } catch (EOFException e) {
      return null;
    }
    return frame;
  }

  /** The request id of a frame. */
  public static int requestId(byte[] frame) {
    return ByteBuffer.wrap(frame).getInt(frame[0] == PROTOCOL_V2 ? 6 : 5);
  }

  /** The command code of a frame. */
  public static int cmdCode(byte[] frame) {
    return ByteBuffer.wrap(frame).getShort(frame[0] == PROTOCOL_V2 ? 3 : 2);
  }

  /** The status of a response frame. */
  public static int status(byte[] frame) {
    return ByteBuffer.wrap(frame).getShort(frame[0] == PROTOCOL_V2 ? 12 : 10);
  }

  /** The type byte of a frame. */
  public static int type(byte[] frame) {
    return frame[0] == PROTOCOL_V2 ? frame[2] : frame[1];
  }
}
