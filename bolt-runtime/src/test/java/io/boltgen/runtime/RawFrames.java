package io.boltgen.runtime;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;

/** Reads whole Bolt frames from a blocking stream, for tests that play a raw peer. */
final class RawFrames {

  private RawFrames() {}

  /** The next whole frame's bytes, or {@code null} at end of stream. */
  static byte[] read(InputStream stream) throws IOException {
    DataInputStream in = new DataInputStream(stream);
    int first = in.read();
    if (first < 0) {
      return null;
    }
    boolean v2 = first == 2;
    byte[] fixed = new byte[v2 ? 2 : 1];
    in.readFully(fixed);
    int type = v2 ? fixed[1] : fixed[0];
    boolean request = type != 0;
    int headerLength = v2 ? (request ? 24 : 22) : (request ? 22 : 20);
    byte[] header = new byte[headerLength];
    header[0] = (byte) first;
    System.arraycopy(fixed, 0, header, 1, fixed.length);
    in.readFully(header, 1 + fixed.length, headerLength - 1 - fixed.length);
    ByteBuffer h = ByteBuffer.wrap(header);
    int lengths = headerLength - 8;
    int classLength = h.getShort(lengths);
    int headerBytes = h.getShort(lengths + 2);
    int contentLength = h.getInt(lengths + 4);
    boolean crc = v2 && header[1] == 2 && (header[v2 ? 11 : 0] & 1) != 0;
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
  static int requestId(byte[] frame) {
    return ByteBuffer.wrap(frame).getInt(frame[0] == 2 ? 6 : 5);
  }

  /** The command code of a frame. */
  static int cmdCode(byte[] frame) {
    return ByteBuffer.wrap(frame).getShort(frame[0] == 2 ? 3 : 2);
  }

  /** The status of a response frame. */
  static int status(byte[] frame) {
    return ByteBuffer.wrap(frame).getShort(frame[0] == 2 ? 12 : 10);
  }

  /** The type byte of a frame. */
  static int type(byte[] frame) {
    return frame[0] == 2 ? frame[2] : frame[1];
  }
}
