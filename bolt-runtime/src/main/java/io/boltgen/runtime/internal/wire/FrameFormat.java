package io.boltgen.runtime.internal.wire;

import io.boltgen.runtime.WireProtocol;

/**
 * The format of a frame: protocol code (V1 or V2), V2 version, and switch flags (bit 0 asks for a CRC32
 * trailer, which only version-2 V2 frames carry). A connection holds the format its requests use; a server
 * answers in the code and version its peer used first, with each request's own switch flags.
 *
 * <p>Immutable; the twelve formats with switch flags 0 or 1 are shared, so taking one allocates nothing.
 */
public final class FrameFormat {

  private static final FrameFormat[] SHARED = new FrameFormat[2 * 3 * 2];

  static {
    for (int code = 1; code <= 2; code++) {
      for (int version = 0; version <= 2; version++) {
        for (int flags = 0; flags <= 1; flags++) {
          SHARED[index(code, version, flags)] = new FrameFormat((byte) code, (byte) version, (byte) flags);
        }
      }
    }
  }

  private final byte protocolCode;
  private final byte version;
  private final byte switchFlags;

  private FrameFormat(byte protocolCode, byte version, byte switchFlags) {
    this.protocolCode = protocolCode;
    this.version = version;
    this.switchFlags = switchFlags;
  }

  private static int index(int code, int version, int flags) {
    return ((code - 1) * 3 + version) * 2 + flags;
  }

  /** The format of {@code code}, {@code version} and {@code switchFlags}. */
  public static FrameFormat of(byte protocolCode, byte version, byte switchFlags) {
    if ((protocolCode == Bolt.PROTOCOL_V1 || protocolCode == Bolt.PROTOCOL_V2) && version >= 0 && version <= 2
        && (switchFlags == 0 || switchFlags == 1)) {
      return SHARED[index(protocolCode, version, switchFlags)];
    }
    return new FrameFormat(protocolCode, version, switchFlags);
  }

  /** The format a client configured with {@code protocol} sends. */
  public static FrameFormat of(WireProtocol protocol) {
    return of(protocol.protocolCode(), protocol.version(), protocol.switchFlags());
  }

  /**
   * The format of a connection whose peer spoke {@code protocolCode} and {@code version} first: requests
   * sent on a V2 connection set the CRC switch, as a SOFABolt client does (it only takes effect with
   * version 2; a first frame's own switch is not kept, since a heartbeat always carries 0).
   */
  public static FrameFormat latched(byte protocolCode, byte version) {
    return of(protocolCode, version, protocolCode == Bolt.PROTOCOL_V2 ? Bolt.SWITCH_CRC : 0);
  }

  /** This format with {@code switchFlags}: how a response echoes its request's switch, or an error answer clears it. */
  public FrameFormat withSwitchFlags(byte switchFlags) {
    return switchFlags == this.switchFlags ? this : of(protocolCode, version, switchFlags);
  }

  /** The first byte of every frame: 1 or 2. */
  byte protocolCode() {
    return protocolCode;
  }

  /** The V2 version byte; 0 for V1, which has none. */
  byte version() {
    return version;
  }

  /** The V2 switch byte. */
  byte switchFlags() {
    return switchFlags;
  }

  /** Whether frames of this format end in a CRC32. */
  boolean hasCrc() {
    return Bolt.hasCrc(protocolCode, version, switchFlags);
  }

  @Override
  public String toString() {
    return "V" + protocolCode + (protocolCode == Bolt.PROTOCOL_V2 ? "." + version : "")
        + (hasCrc() ? "+CRC" : "");
  }
}
