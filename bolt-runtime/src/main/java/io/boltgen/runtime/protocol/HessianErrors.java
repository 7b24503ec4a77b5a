package io.boltgen.runtime.protocol;

import io.boltgen.runtime.codec.Marshaller;
import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;

/**
 * Just enough Hessian2 to exchange server errors with SOFABolt peers, whose clients expect the body of a
 * {@code SERVER_EXCEPTION} response to be a Hessian-serialized Throwable (codec 1).
 *
 * <ul>
 *   <li>{@link #SERVER_EXCEPTION} writes a {@code com.alipay.remoting.rpc.exception.RpcServerException}
 *       whose only field is its {@code detailMessage}: a SOFABolt client deserializes it into the cause of
 *       its {@code InvokeServerException}.</li>
 *   <li>{@link #readThrowable} reads the class name and {@code detailMessage} of the Throwable a SOFABolt
 *       server sends, skipping every other field (stack trace, cause, suppressed…).</li>
 * </ul>
 * Nothing else of Hessian is supported, on purpose.
 */
public final class HessianErrors {

  /** The class SOFABolt servers put in the className (and body) of their error responses. */
  public static final String RPC_SERVER_EXCEPTION = "com.alipay.remoting.rpc.exception.RpcServerException";

  /** The longest message written, in chars; longer ones are cut. */
  static final int MAX_MESSAGE_CHARS = 8192;

  private static final int MAX_DEPTH = 64;

  /** Writes an RpcServerException with the given detail message, codec {@link Bolt#CODEC_HESSIAN2}. */
  public static final Marshaller<String> SERVER_EXCEPTION = new ServerExceptionMarshaller();

  private HessianErrors() {}

  /** The class name and message read from an error body; either may be {@code null}. */
  public record RemoteThrowable(String className, String message) {}

  /**
   * Reads the class name and {@code detailMessage} of a Hessian2-serialized Throwable from the readable
   * bytes of {@code in}, or returns {@code null} when the bytes are not such an object. Never throws.
   */
  public static RemoteThrowable readThrowable(ByteBuf in) {
    Reader reader = new Reader(in.duplicate());
    try {
      return reader.readTopLevel();
    } catch (RuntimeException e) {
      return reader.className == null ? null : new RemoteThrowable(reader.className, reader.message);
    }
  }

  // ---------------------------------------------------------------- writing

  private static final class ServerExceptionMarshaller implements Marshaller<String> {
    private static final String FIELD = "detailMessage";

    @Override
    public byte codecId() {
      return Bolt.CODEC_HESSIAN2;
    }

    @Override
    public int encodedSize(String message) {
      // 'C' name count field, then 0x60 (object of class 0) and the value
      return 1 + stringSize(RPC_SERVER_EXCEPTION) + 1 + stringSize(FIELD) + 1
          + (message == null ? 1 : stringSize(cut(message)));
    }

    @Override
    public void write(String message, ByteBuf out) {
      out.writeByte('C');
      writeString(RPC_SERVER_EXCEPTION, out);
      out.writeByte(0x90 + 1); // compact int 1: one field
      writeString(FIELD, out);
      out.writeByte(0x60); // an object of class definition 0
      if (message == null) {
        out.writeByte('N');
      } else {
        writeString(cut(message), out);
      }
    }

    @Override
    public String read(ByteBuf in) {
      RemoteThrowable t = readThrowable(in);
      return t == null ? null : t.message();
    }
  }

  private static String cut(String message) {
    return message.length() <= MAX_MESSAGE_CHARS ? message : message.substring(0, MAX_MESSAGE_CHARS);
  }

  /** Size of a Hessian2 string of at most 32768 chars: a 1- or 2-byte length, or 'S' and 2 bytes. */
  static int stringSize(String s) {
    int chars = s.length();
    int prefix = chars <= 31 ? 1 : chars <= 1023 ? 2 : 3;
    return prefix + charBytes(s);
  }

  private static int charBytes(String s) {
    int size = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      size += c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
    }
    return size;
  }

  static void writeString(String s, ByteBuf out) {
    int chars = s.length();
    if (chars > 0x8000) {
      throw new IllegalArgumentException("string too long for a single Hessian chunk: " + chars);
    }
    if (chars <= 31) {
      out.writeByte(chars);
    } else if (chars <= 1023) {
      out.writeByte(0x30 + (chars >> 8));
      out.writeByte(chars);
    } else {
      out.writeByte('S');
      out.writeShort(chars);
    }
    // Hessian counts UTF-16 chars and encodes each one on its own (surrogates as 3 bytes each).
    for (int i = 0; i < chars; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        out.writeByte(c);
      } else if (c < 0x800) {
        out.writeByte(0xc0 | (c >> 6));
        out.writeByte(0x80 | (c & 0x3f));
      } else {
        out.writeByte(0xe0 | (c >> 12));
        out.writeByte(0x80 | ((c >> 6) & 0x3f));
        out.writeByte(0x80 | (c & 0x3f));
      }
    }
  }

  // ---------------------------------------------------------------- reading

  /** A forgiving Hessian2 walker that keeps only the top object's class name and detailMessage. */
  private static final class Reader {
    private final ByteBuf in;
    private final List<String[]> classDefs = new ArrayList<>();
    private final List<String> types = new ArrayList<>();
    String className;
    String message;

    Reader(ByteBuf in) {
      this.in = in;
    }

    RemoteThrowable readTopLevel() {
      int tag = in.readUnsignedByte();
      while (tag == 'C') {
        readClassDef();
        tag = in.readUnsignedByte();
      }
      int ref;
      if (tag >= 0x60 && tag <= 0x6f) {
        ref = tag - 0x60;
      } else if (tag == 'O') {
        ref = readInt(in.readUnsignedByte());
      } else {
        return null;
      }
      String[] def = classDefs.get(ref);
      className = def[0];
      for (int i = 1; i < def.length; i++) {
        if ("detailMessage".equals(def[i])) {
          int t = in.readUnsignedByte();
          message = t == 'N' ? null : readStringTagged(t);
        } else {
          skip(in.readUnsignedByte(), 0);
        }
      }
      return new RemoteThrowable(className, message);
    }

    private void readClassDef() {
      String name = readStringTagged(in.readUnsignedByte());
      int count = readInt(in.readUnsignedByte());
      if (count < 0 || count > 4096) {
        throw new IllegalStateException("bad field count " + count);
      }
      String[] def = new String[count + 1];
      def[0] = name;
      for (int i = 1; i <= count; i++) {
        def[i] = readStringTagged(in.readUnsignedByte());
      }
      classDefs.add(def);
    }

    private int readInt(int tag) {
      if (tag >= 0x80 && tag <= 0xbf) {
        return tag - 0x90;
      }
      if (tag >= 0xc0 && tag <= 0xcf) {
        return ((tag - 0xc8) << 8) + in.readUnsignedByte();
      }
      if (tag >= 0xd0 && tag <= 0xd7) {
        return ((tag - 0xd4) << 16) + in.readUnsignedShort();
      }
      if (tag == 'I') {
        return in.readInt();
      }
      throw new IllegalStateException("expected an int, found tag " + tag);
    }

    private String readStringTagged(int tag) {
      StringBuilder sb = new StringBuilder();
      for (;;) {
        int chars;
        boolean last = true;
        if (tag <= 0x1f) {
          chars = tag;
        } else if (tag >= 0x30 && tag <= 0x33) {
          chars = ((tag - 0x30) << 8) + in.readUnsignedByte();
        } else if (tag == 'S' || tag == 'R') {
          chars = in.readUnsignedShort();
          last = tag == 'S';
        } else {
          throw new IllegalStateException("expected a string, found tag " + tag);
        }
        for (int i = 0; i < chars; i++) {
          int b = in.readUnsignedByte();
          if (b < 0x80) {
            sb.append((char) b);
          } else if ((b & 0xe0) == 0xc0) {
            sb.append((char) (((b & 0x1f) << 6) | (in.readUnsignedByte() & 0x3f)));
          } else {
            int b1 = in.readUnsignedByte();
            int b2 = in.readUnsignedByte();
            sb.append((char) (((b & 0x0f) << 12) | ((b1 & 0x3f) << 6) | (b2 & 0x3f)));
          }
        }
        if (last) {
          return sb.toString();
        }
        tag = in.readUnsignedByte();
      }
    }

    private void readType() {
      int tag = in.readUnsignedByte();
      if (tag <= 0x1f || (tag >= 0x30 && tag <= 0x33) || tag == 'S' || tag == 'R') {
        types.add(readStringTagged(tag));
      } else {
        readInt(tag); // a reference to an earlier type
      }
    }

    /** Skips the value whose first byte is {@code tag}. */
    private void skip(int tag, int depth) {
      if (depth > MAX_DEPTH) {
        throw new IllegalStateException("nested too deeply");
      }
      if (tag <= 0x1f || (tag >= 0x30 && tag <= 0x33) || tag == 'S' || tag == 'R') {
        readStringTagged(tag);
      } else if (tag >= 0x20 && tag <= 0x2f) {
        in.skipBytes(tag - 0x20);
      } else if (tag >= 0x34 && tag <= 0x37) {
        in.skipBytes(((tag - 0x34) << 8) + in.readUnsignedByte());
      } else if (tag == 'A' || tag == 'B') {
        for (;;) {
          in.skipBytes(in.readUnsignedShort());
          if (tag == 'B') {
            break;
          }
          tag = in.readUnsignedByte();
        }
      } else if (tag >= 0x38 && tag <= 0x3f) {
        in.skipBytes(2);
      } else if (tag == 'C') {
        readClassDef();
        skip(in.readUnsignedByte(), depth + 1);
      } else if (tag == 'D' || tag == 'L' || tag == 0x4a) {
        in.skipBytes(8);
      } else if (tag == 'F' || tag == 'T' || tag == 'N' || tag == 0x5b || tag == 0x5c) {
        // no payload
      } else if (tag == 'H') {
        skipUntilEnd(depth, true);
      } else if (tag == 'M') {
        readType();
        skipUntilEnd(depth, true);
      } else if (tag == 'I' || tag == 'Y' || tag == 0x4b || tag == 0x5f) {
        in.skipBytes(4);
      } else if (tag == 'O') {
        skipFields(readInt(in.readUnsignedByte()), depth);
      } else if (tag >= 0x60 && tag <= 0x6f) {
        skipFields(tag - 0x60, depth);
      } else if (tag == 'Q') {
        readInt(in.readUnsignedByte());
      } else if (tag == 'U') {
        readType();
        skipUntilEnd(depth, false);
      } else if (tag == 'V') {
        readType();
        skipValues(readInt(in.readUnsignedByte()), depth);
      } else if (tag == 'W') {
        skipUntilEnd(depth, false);
      } else if (tag == 'X') {
        skipValues(readInt(in.readUnsignedByte()), depth);
      } else if (tag == 0x5d) {
        in.skipBytes(1);
      } else if (tag == 0x5e) {
        in.skipBytes(2);
      } else if (tag >= 0x70 && tag <= 0x77) {
        readType();
        skipValues(tag - 0x70, depth);
      } else if (tag >= 0x78 && tag <= 0x7f) {
        skipValues(tag - 0x78, depth);
      } else if (tag >= 0x80 && tag <= 0xbf) {
        // one-octet int
      } else if (tag >= 0xc0 && tag <= 0xcf) {
        in.skipBytes(1);
      } else if (tag >= 0xd0 && tag <= 0xd7) {
        in.skipBytes(2);
      } else if (tag >= 0xd8 && tag <= 0xef) {
        // one-octet long
      } else if (tag >= 0xf0) {
        in.skipBytes(1);
      } else {
        throw new IllegalStateException("unsupported Hessian tag " + tag);
      }
    }

    private void skipFields(int classRef, int depth) {
      String[] def = classDefs.get(classRef);
      skipValues(def.length - 1, depth);
    }

    private void skipValues(int count, int depth) {
      for (int i = 0; i < count; i++) {
        skip(in.readUnsignedByte(), depth + 1);
      }
    }

    private void skipUntilEnd(int depth, boolean pairs) {
      for (;;) {
        int tag = in.readUnsignedByte();
        if (tag == 'Z') {
          return;
        }
        skip(tag, depth + 1);
        if (pairs) {
          skip(in.readUnsignedByte(), depth + 1);
        }
      }
    }
  }
}
