package io.boltgen.runtime.internal;

/** The SOFABolt 1.6.10 captures of CaptureCodecTest as bytes, for tests outside this package. */
public final class CaptureBytes {

  private CaptureBytes() {}

  /** The V2 request with a valid CRC. */
  public static byte[] v2CrcRequest() {
    return Hex.bytes(CaptureCodecTest.V2_CRC_REQUEST);
  }

  /** A V1 heartbeat with request id 3. */
  public static byte[] v1Heartbeat() {
    return Hex.bytes(CaptureCodecTest.V1_HEARTBEAT);
  }
}
