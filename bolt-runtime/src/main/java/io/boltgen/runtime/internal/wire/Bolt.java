package io.boltgen.runtime.internal.wire;

/** Constants of the Bolt wire protocol (docs/wire-format.md). */
public final class Bolt {

  private Bolt() {}

  /** Protocol code of RpcProtocol (V1). */
  public static final byte PROTOCOL_V1 = 1;
  /** Protocol code of RpcProtocolV2. */
  public static final byte PROTOCOL_V2 = 2;

  /** Frame type of a response (and a heartbeat ack). */
  static final byte TYPE_RESPONSE = 0;
  /** Frame type of a request (and a heartbeat). */
  public static final byte TYPE_REQUEST = 1;
  /** Frame type of a oneway request. */
  public static final byte TYPE_ONEWAY = 2;

  /** Command code of a heartbeat and its ack. */
  static final short CMD_HEARTBEAT = 0;
  /** Command code of an RPC request. */
  public static final short CMD_REQUEST = 1;
  /** Command code of an RPC response. */
  public static final short CMD_RESPONSE = 2;

  /** The command version byte; always 1, never checked by SOFABolt. */
  static final byte COMMAND_VERSION = 1;

  /** Bit 0 of the V2 switch byte: a CRC32 trailer follows the content (when the version is 2). */
  public static final byte SWITCH_CRC = 0x01;

  /** Codec id of Hessian2, SOFABolt's default and the codec of its server-built error responses. */
  static final byte CODEC_HESSIAN2 = 1;

  /** The timeout field of oneway requests and heartbeats. */
  public static final int NO_TIMEOUT = -1;

  /** Header size of a V1 request. */
  static final int V1_REQUEST_HEADER = 22;
  /** Header size of a V1 response. */
  static final int V1_RESPONSE_HEADER = 20;
  /** Header size of a V2 request. */
  static final int V2_REQUEST_HEADER = 24;
  /** Header size of a V2 response. */
  static final int V2_RESPONSE_HEADER = 22;
  /** Size of the CRC32 trailer. */
  static final int CRC_LENGTH = 4;

  /** The largest className or header entries length: both are int16 on the wire. */
  static final int MAX_SHORT_LENGTH = Short.MAX_VALUE;

  /** Whether a frame with this protocol code, version and switch carries a CRC32 trailer. */
  static boolean hasCrc(byte protocolCode, byte version, byte switchFlags) {
    return protocolCode == PROTOCOL_V2 && version == 2 && (switchFlags & SWITCH_CRC) != 0;
  }

  /** The fixed header size of a frame of this protocol; {@code request} for requests, oneways and heartbeats. */
  static int fixedHeaderLength(byte protocolCode, boolean request) {
    if (protocolCode == PROTOCOL_V1) {
      return request ? V1_REQUEST_HEADER : V1_RESPONSE_HEADER;
    }
    return request ? V2_REQUEST_HEADER : V2_RESPONSE_HEADER;
  }
}
