package io.boltgen.runtime.support;

/**
 * Text that someone else wrote (a peer's className or error message, a registry entry, a key, a service name,
 * an address), made safe for an error message or a log line so that it can neither break the line nor flood
 * it: ISO control characters (C0, DEL, C1) are written as <code>&#92;uXXXX</code>, and long text is cut, never
 * between the halves of a surrogate pair, saying how much was left out. The one helper for such text.
 */
@Internal
public final class MessageText {

  /** The most characters of the text a quotation shows. */
  public static final int MAX_QUOTED = 80;

  /** The most characters of peer-controlled text (a className, a remote message) one log line carries. */
  public static final int MAX_CHARS = 200;

  private MessageText() {}

  /**
   * {@code text} in double quotes, escaped and cut at {@value #MAX_QUOTED} characters, saying how long the text
   * was: {@code "abc…(200 characters)"}.
   */
  public static String quote(String text) {
    int shown = shownLength(text, MAX_QUOTED);
    StringBuilder out = new StringBuilder(shown + 24).append('"');
    appendEscaped(out, text, shown);
    if (text.length() > MAX_QUOTED) {
      out.append("…(").append(text.length()).append(" characters)");
    }
    return out.append('"').toString();
  }

  /** {@code text} escaped and cut at {@link #MAX_CHARS} characters, saying how many were cut; "null" for null. */
  public static String shorten(CharSequence text) {
    return shorten(text, MAX_CHARS);
  }

  /** {@code text} escaped and cut at {@code max} characters: {@code abc…(120 more chars)}; "null" for null. */
  public static String shorten(CharSequence text, int max) {
    if (text == null) {
      return "null";
    }
    int shown = shownLength(text, max);
    StringBuilder out = new StringBuilder(shown + 24);
    appendEscaped(out, text, shown);
    if (shown < text.length()) {
      out.append("…(").append(text.length() - shown).append(" more chars)");
    }
    return out.toString();
  }

  private static int shownLength(CharSequence text, int max) {
    int shown = Math.min(text.length(), max);
    if (shown > 0 && shown < text.length() && Character.isHighSurrogate(text.charAt(shown - 1))) {
      shown--; // never half a pair
    }
    return shown;
  }

  private static void appendEscaped(StringBuilder out, CharSequence text, int shown) {
    for (int i = 0; i < shown; i++) {
      char c = text.charAt(i);
      if (Character.isISOControl(c)) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
  }
}
