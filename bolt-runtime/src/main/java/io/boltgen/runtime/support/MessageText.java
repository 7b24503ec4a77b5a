package io.boltgen.runtime.support;

/**
 * Text that someone else wrote (a registry entry, a key, a service name, an address), quoted for an error
 * message or a log line so that it can neither break the line nor flood it.
 */
@Internal
public final class MessageText {

  /** The most characters of the text a quotation shows. */
  public static final int MAX_QUOTED = 80;

  private MessageText() {}

  /**
   * {@code text} in double quotes, with ISO control characters (C0, DEL, C1) written as <code>&#92;uXXXX</code>
   * and anything past {@value #MAX_QUOTED} characters cut (never between the halves of a surrogate pair), saying
   * how long the text was: {@code "abc…(200 characters)"}.
   */
  public static String quote(String text) {
    int shown = Math.min(text.length(), MAX_QUOTED);
    if (shown < text.length() && Character.isHighSurrogate(text.charAt(shown - 1))) {
      shown--; // never half a pair
    }
    StringBuilder out = new StringBuilder(shown + 24).append('"');
    text.chars().limit(shown).forEach(c -> {
      if (Character.isISOControl(c)) {
        out.append(String.format("\\u%04x", c));
      } else {
        out.append((char) c);
      }
    });
    if (text.length() > MAX_QUOTED) {
      out.append("…(").append(text.length()).append(" characters)");
    }
    return out.append('"').toString();
  }
}
