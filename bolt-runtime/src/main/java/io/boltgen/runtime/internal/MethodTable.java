package io.boltgen.runtime.internal;

import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.ServiceDefinition;
import io.netty.util.concurrent.FastThreadLocal;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;

/**
 * The methods an endpoint serves, keyed by their wire className (and aliases). Immutable once built;
 * lookups hash and compare the className bytes of the frame, so dispatch allocates no String (the hash
 * reads the name's length and its first, middle and last eight bytes, the comparison all of it). SOFARPC's
 * methods all share one className ({@link MethodDescriptor#SOFA_REQUEST}): a request with that className is
 * looked up by its headers ({@link #lookupSofaRpc}, {@link MethodDescriptor#dispatchKey}).
 */
final class MethodTable {

  private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final FastThreadLocal<byte[]> SCRATCH = new FastThreadLocal<>() {
    @Override
    protected byte[] initialValue() {
      return new byte[256];
    }
  };

  private final byte[][] keys;
  private final MethodEntry[] entries;
  private final int mask;
  private static final byte[] SOFA_REQUEST = MethodDescriptor.SOFA_REQUEST.getBytes(StandardCharsets.UTF_8);

  private final List<MethodEntry> all;
  // SOFARPC's methods by dispatch key (empty when the endpoint serves none)
  private final Map<String, MethodEntry> sofaRpc = new HashMap<>();

  private MethodTable(List<MethodEntry> all) {
    this.all = List.copyOf(all);
    int keyCount = 0;
    for (MethodEntry entry : all) {
      keyCount += 1 + entry.method().aliases().size();
    }
    int capacity = Integer.highestOneBit(Math.max(4, keyCount * 4) - 1) << 1;
    this.keys = new byte[capacity][];
    this.entries = new MethodEntry[capacity];
    this.mask = capacity - 1;
    for (MethodEntry entry : all) {
      if (entry.method().wireName().equals(MethodDescriptor.SOFA_REQUEST)) {
        if (sofaRpc.put(entry.method().dispatchKey(), entry) != null) {
          throw new IllegalArgumentException("SOFARPC method " + entry.method() + " is registered twice");
        }
        continue;
      }
      put(entry.method().wireName().getBytes(StandardCharsets.UTF_8), entry);
      for (String alias : entry.method().aliases()) {
        put(alias.getBytes(StandardCharsets.UTF_8), entry);
      }
    }
  }

  private void put(byte[] className, MethodEntry entry) {
    int slot = hash(className, className.length) & mask;
    while (keys[slot] != null) {
      if (Arrays.equals(keys[slot], className)) {
        throw new IllegalArgumentException("className " + new String(className, StandardCharsets.UTF_8)
            + " is registered twice");
      }
      slot = (slot + 1) & mask;
    }
    keys[slot] = className;
    entries[slot] = entry;
  }

  /**
   * A hash of the first {@code length} bytes from their length and three runs of eight: the first, the
   * middle and the last (three loads, not a multiply per byte: classNames are tens of bytes long; keys that
   * collide are told apart by comparing their bytes).
   */
  private static int hash(byte[] bytes, int length) {
    long h;
    if (length >= Long.BYTES) {
      h = ((long) LONG.get(bytes, 0) * 0x9E3779B97F4A7C15L ^ (long) LONG.get(bytes, (length - Long.BYTES) >>> 1))
          * 0x9E3779B97F4A7C15L ^ (long) LONG.get(bytes, length - Long.BYTES);
    } else {
      h = 0;
      for (int i = 0; i < length; i++) {
        h = h << 8 | (bytes[i] & 0xFF);
      }
    }
    h = (h ^ length) * 0xC2B2AE3D27D4EB4FL;
    return (int) (h ^ (h >>> 32));
  }

  /**
   * The entry whose wire name (or alias) equals the className of {@code frame}, or {@code null}. Copies
   * the name once into a per-thread scratch array (one bulk read of the buffer) and compares arrays.
   */
  MethodEntry lookup(BoltFrame frame) {
    int length = frame.classLength();
    byte[] name = SCRATCH.get();
    if (length > name.length) {
      name = new byte[length];
    }
    frame.copyClassName(name);
    return lookup(name, length);
  }

  /** The entry whose wire name (or alias) is the first {@code length} bytes of {@code name}, or {@code null}. */
  MethodEntry lookup(byte[] name, int length) {
    int slot = hash(name, length) & mask;
    byte[] key;
    while ((key = keys[slot]) != null) {
      if (key.length == length && Arrays.equals(key, 0, length, name, 0, length)) {
        return entries[slot];
      }
      slot = (slot + 1) & mask;
    }
    return null;
  }

  /** Whether this endpoint serves SOFARPC methods (whose requests are found by {@link #lookupSofaRpc}). */
  boolean servesSofaRpc() {
    return !sofaRpc.isEmpty();
  }

  /** Whether {@code frame}'s className is SOFARPC's request class, shared by every SOFARPC method. */
  static boolean isSofaRpc(BoltFrame frame) {
    int length = frame.classLength();
    if (length != SOFA_REQUEST.length) {
      return false;
    }
    byte[] name = SCRATCH.get();
    frame.copyClassName(name);
    return Arrays.equals(SOFA_REQUEST, 0, length, name, 0, length);
  }

  /**
   * The SOFARPC method a request with these headers asks for, or {@code null}: the request's headers are read
   * once, by the caller, and serve the call afterwards too.
   */
  MethodEntry lookupSofaRpc(Map<String, String> headers) {
    return sofaRpc.get(MethodDescriptor.dispatchKey(MethodDescriptor.SOFA_REQUEST, headers));
  }

  /**
   * What a SOFARPC request asks for, for messages: {@code SOFARPC service <target>, method <name>} from its
   * header (cut to {@link LogText#MAX_CHARS} each), or SOFARPC's request className when the header is malformed.
   */
  static String sofaRpcName(BoltFrame frame) {
    try {
      Map<String, String> headers = HeadersCodec.read(frame.headers());
      return "SOFARPC service " + LogText.shorten(headers.get(MethodDescriptor.SOFA_TARGET_SERVICE))
          + ", method " + LogText.shorten(headers.get(MethodDescriptor.SOFA_METHOD_NAME));
    } catch (RuntimeException e) {
      return MethodDescriptor.SOFA_REQUEST;
    }
  }

  /** Every method, in the order the services were added. */
  List<MethodEntry> entries() {
    return all;
  }

  static Builder builder() {
    return new Builder();
  }

  /** Collects services. */
  static final class Builder {
    private final List<MethodEntry> entries = new ArrayList<>();

    private Builder() {}

    /** Adds every method of {@code service}, to run on {@code executor} ({@code null}: the default). */
    public Builder add(ServiceDefinition service, Executor executor) {
      for (MethodDescriptor<?, ?> method : service.descriptor().methods()) {
        entries.add(new MethodEntry(method, service.invoker(), executor));
      }
      return this;
    }

    /** The registry. */
    public MethodTable build() {
      return new MethodTable(entries);
    }
  }
}
