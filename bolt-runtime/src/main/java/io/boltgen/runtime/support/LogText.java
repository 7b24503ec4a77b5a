package io.boltgen.runtime.support;

/** Text that goes into log lines and error messages, cut to a bounded length: a peer controls it. */
@Internal
public final class LogText {

  /** The most characters of peer-controlled text (a className, a remote message) one log line carries. */
  public static final int MAX_CHARS = 200;

  private LogText() {}

  /** {@code text} cut to {@link #MAX_CHARS} characters, saying how many were cut; "null" for null. */
  public static String shorten(CharSequence text) {
    return shorten(text, MAX_CHARS);
  }

  /** {@code text} cut to {@code max} characters, saying how many were cut; "null" for null. */
  public static String shorten(CharSequence text, int max) {
    if (text == null) {
      return "null";
    }
    int length = text.length();
    if (length <= max) {
      return text.toString();
    }
    int end = max;
    if (Character.isHighSurrogate(text.charAt(end - 1))) {
      end--; // never split a surrogate pair
    }
    return text.subSequence(0, end) + "…(" + (length - end) + " more chars)";
  }
}
