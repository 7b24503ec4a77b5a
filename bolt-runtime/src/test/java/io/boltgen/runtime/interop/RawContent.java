package io.boltgen.runtime.interop;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The object a SOFABolt peer holds for opaque content bytes, and optionally header entries (SOFARPC's
 * key/value layout). A SOFABolt RpcClient puts the request object's class name into the frame's
 * className, so each request kind the tests send is a subclass of this one; {@link SofaBolt#registerRaw}
 * makes SOFABolt copy the bytes in and out of the frame unchanged.
 */
class RawContent {

  private final byte[] bytes;
  private final Map<String, String> header;

  RawContent(byte[] bytes, Map<String, String> header) {
    this.bytes = bytes == null ? new byte[0] : bytes.clone();
    this.header = header == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(header));
  }

  RawContent(byte[] bytes) {
    this(bytes, null);
  }

  RawContent(String text) {
    this(text.getBytes(StandardCharsets.UTF_8), null);
  }

  final byte[] bytes() {
    return bytes.clone();
  }

  final String text() {
    return new String(bytes, StandardCharsets.UTF_8);
  }

  /** The header entries to send, or that arrived; {@code null} for none. */
  final Map<String, String> header() {
    return header;
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + "[" + text() + (header == null ? "" : ", header=" + header) + "]";
  }

  @Override
  @SuppressWarnings("EqualsGetClass") // a Reply and an EchoRequest with the same bytes are still not equal
  public boolean equals(Object o) {
    return o != null && o.getClass() == getClass() && Arrays.equals(bytes, ((RawContent) o).bytes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes);
  }
}
