package io.boltgen.hessian;

/**
 * The class name and {@code detailMessage} of a serialized Throwable, read by {@link HessianReader#readFields}:
 * the message is read, every other field (cause, stack trace, suppressed exceptions…) skipped. What it read stays
 * when the rest of the object turns out malformed, for a caller that makes do with it (SOFABolt's error bodies).
 *
 * <p>One per object read, confined to its reader's thread.
 */
public final class ThrowableFields implements HessianReader.FieldReader {

  /** The field of {@code java.lang.Throwable} that holds its message. */
  public static final String DETAIL_MESSAGE = "detailMessage";

  private String className;
  private String message;
  private boolean messageRead;

  /** Fields to be read. */
  public ThrowableFields() {}

  @Override
  public boolean read(HessianReader in, String className, String field) {
    this.className = className;
    if (messageRead || !DETAIL_MESSAGE.equals(field)) {
      return false;
    }
    message = in.readString();
    messageRead = true;
    return true;
  }

  /** The class name of the object, once its first field was come to; else null. */
  public String className() {
    return className;
  }

  /** The {@code detailMessage} read; null when it was null or was not read. */
  public String message() {
    return message;
  }
}
