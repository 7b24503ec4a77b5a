package io.boltgen.runtime;

/**
 * The frame format a client sends (a server answers each connection in the format of its first frame).
 * See docs/wire-format.md.
 *
 * <p>Immutable.
 */
public enum WireProtocol {
  /** RpcProtocol (protocol code 1): what a stock SOFABolt RpcClient sends by default. */
  V1((byte) 1, (byte) 0, (byte) 0),
  /** RpcProtocolV2, protocol version 1: no CRC ({@code ?_PROTOCOL=2&_VERSION=1}). */
  V2((byte) 2, (byte) 1, (byte) 0),
  /** RpcProtocolV2, protocol version 2 with the CRC switch set: every frame ends in a CRC32. The default. */
  V2_CRC((byte) 2, (byte) 2, (byte) 1);

  private final byte protocolCode;
  private final byte version;
  private final byte switchFlags;

  WireProtocol(byte protocolCode, byte version, byte switchFlags) {
    this.protocolCode = protocolCode;
    this.version = version;
    this.switchFlags = switchFlags;
  }

  /** The first byte of every frame: 1 or 2. */
  public byte protocolCode() {
    return protocolCode;
  }

  /** The V2 protocol version byte (1 or 2); 0 for V1, which has none. */
  public byte version() {
    return version;
  }

  /** The V2 switch byte sent on requests: bit 0 asks for a CRC32 trailer. */
  public byte switchFlags() {
    return switchFlags;
  }
}
