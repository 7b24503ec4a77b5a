package io.boltgen.runtime;

/**
 * The Bolt response status: the int16 at the status offset of a response frame, with SOFABolt's values.
 *
 * <p>Servers send {@link #SUCCESS}, {@link #SERVER_EXCEPTION}, {@link #SERVER_THREADPOOL_BUSY},
 * {@link #NO_PROCESSOR}, {@link #SERVER_SERIAL_EXCEPTION} and {@link #SERVER_DESERIAL_EXCEPTION}. A client
 * makes up {@link #TIMEOUT}, {@link #CLIENT_SEND_ERROR}, {@link #CONNECTION_CLOSED},
 * {@link #CODEC_EXCEPTION} and {@link #ERROR_COMM} locally; they never travel.
 */
public enum ResponseStatus {
  SUCCESS(0x00),
  ERROR(0x01),
  SERVER_EXCEPTION(0x02),
  UNKNOWN(0x03),
  SERVER_THREADPOOL_BUSY(0x04),
  /** Communication failed, for example the connection could not be made. */
  ERROR_COMM(0x05),
  NO_PROCESSOR(0x06),
  TIMEOUT(0x07),
  CLIENT_SEND_ERROR(0x08),
  CODEC_EXCEPTION(0x09),
  CONNECTION_CLOSED(0x10),
  SERVER_SERIAL_EXCEPTION(0x11),
  SERVER_DESERIAL_EXCEPTION(0x12);

  private static final ResponseStatus[] BY_CODE = new ResponseStatus[0x13];

  static {
    for (ResponseStatus status : values()) {
      BY_CODE[status.code] = status;
    }
  }

  private final short code;

  ResponseStatus(int code) {
    this.code = (short) code;
  }

  /** The value on the wire. */
  public short code() {
    return code;
  }

  /** The status with this wire value, or {@code null} when the value is not a Bolt status. */
  public static ResponseStatus fromCode(int code) {
    return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
  }
}
