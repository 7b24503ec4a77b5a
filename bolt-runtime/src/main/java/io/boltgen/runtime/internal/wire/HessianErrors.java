package io.boltgen.runtime.internal.wire;

import io.boltgen.runtime.codec.Marshaller;
import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;

/**
 * Just enough Hessian to exchange server errors with SOFABolt peers, whose clients expect the body of a
 * {@code SERVER_EXCEPTION} response to be a Hessian-serialized Throwable (codec 1).
 *
 * <p>SOFABolt's sofa-hessian 3.5.3 writes and reads the <em>draft</em> Hessian 2.0 grammar, not the final
 * one: a class definition is {@code 'O' int(typeLength) typeBytes int(fieldCount) string*}, an instance
 * is {@code 'o' int(classRef)} followed by its field values, long strings are {@code 'S' u16 chars}
 * (non-final chunks {@code 's'}), lists are {@code 'V' ['t' u16 type] ['n' u8 | 'l' u32] values 'z'},
 * maps {@code 'M' ['t' u16 type] (key value)* 'z'}. Strings count UTF-16 chars, each encoded on its own in
 * UTF-8 (surrogates as 3 bytes each); compact ints are as in the final spec. That grammar is what this
 * class speaks:
 *
 * <ul>
 *   <li>{@link #SERVER_EXCEPTION} writes a {@code com.alipay.remoting.rpc.exception.RpcServerException}
 *       whose only field is its {@code detailMessage}: a SOFABolt client deserializes it into the cause of
 *       its {@code InvokeServerException}.</li>
 *   <li>{@link #readThrowable} reads the class name and {@code detailMessage} of the Throwable a SOFABolt
 *       server sends, skipping the fields it does not need (cause, stack trace, suppressed…).</li>
 * </ul>
 * Nothing else of Hessian is supported, on purpose.
 *
 * <p>Stateless.
 */
final class HessianErrors {

  /** The class SOFABolt servers put in the className (and body) of their error responses. */
  static final String RPC_SERVER_EXCEPTION = "com.alipay.remoting.rpc.exception.RpcServerException";

  /** The longest message written, in chars; longer ones are cut. */
  static final int MAX_MESSAGE_CHARS = 8192;

  private static final int MAX_DEPTH = 64;
  private static final String DETAIL_MESSAGE = "detailMessage";

  /** Writes an RpcServerException with the given detail message, codec {@link Bolt#CODEC_HESSIAN2}. */
  static final Marshaller<String> SERVER_EXCEPTION = new ServerExceptionMarshaller();

  private HessianErrors() {}

  /** The class name and message read from an error body; the message may be {@code null}. */
  record RemoteThrowable(String className, String message) {}

  /**
   * Reads the class name and {@code detailMessage} of a Hessian-serialized Throwable from the readable
   * bytes of {@code in} (without moving its reader index), or returns {@code null} when the bytes are
   * not such an object. Never throws.
   */
  static RemoteThrowable readThrowable(ByteBuf in) {
    Reader reader = new Reader(in.duplicate());
    try {
      return reader.readTopLevel();
    } catch (RuntimeException e) {
      return reader.className == null ? null : new RemoteThrowable(reader.className, reader.message);
    }
  }

  // ---------------------------------------------------------------- writing

  private static final class ServerExceptionMarshaller implements Marshaller<String> {

    @Override
    public byte codecId() {
      return Bolt.CODEC_HESSIAN2;
    }

    @Override
    public int encodedSize(String message) {
      int typeBytes = RPC_SERVER_EXCEPTION.length(); // ASCII
      return 1 + intSize(typeBytes) + typeBytes + intSize(1) + 1 + DETAIL_MESSAGE.length()
          + 1 + intSize(0) + (message == null ? 1 : 3 + charBytes(cut(message)));
    }

    @Override
    public void write(String message, ByteBuf out) {
      out.writeByte('O');
      writeInt(RPC_SERVER_EXCEPTION.length(), out);
      writeChars(RPC_SERVER_EXCEPTION, out);
      writeInt(1, out); // one field
      out.writeByte(DETAIL_MESSAGE.length());
      writeChars(DETAIL_MESSAGE, out);
      out.writeByte('o');
      writeInt(0, out); // an instance of class definition 0
      if (message == null) {
        out.writeByte('N');
      } else {
        String cut = cut(message);
        out.writeByte('S');
        out.writeShort(cut.length());
        writeChars(cut, out);
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

  /** Size of a compact Hessian int (only the forms {@link #writeInt} writes). */
  private static int intSize(int value) {
    return value >= -16 && value <= 47 ? 1 : value >= -2048 && value <= 2047 ? 2 : 5;
  }

  static void writeInt(int value, ByteBuf out) {
    if (value >= -16 && value <= 47) {
      out.writeByte(0x90 + value);
    } else if (value >= -2048 && value <= 2047) {
      out.writeByte(0xc8 + (value >> 8));
      out.writeByte(value);
    } else {
      out.writeByte('I');
      out.writeInt(value);
    }
  }

  private static int charBytes(String s) {
    int size = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      size += c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
    }
    return size;
  }

  /** Each UTF-16 char on its own, in UTF-8 (so a surrogate pair is two 3-byte sequences), as Hessian does. */
  static void writeChars(String s, ByteBuf out) {
    for (int i = 0; i < s.length(); i++) {
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

  /** A forgiving walker of draft Hessian 2.0 that keeps only the top object's class name and detailMessage. */
  private static final class Reader {
    private final ByteBuf in;
    private final List<String[]> classDefs = new ArrayList<>();
    String className;
    String message;

    Reader(ByteBuf in) {
      this.in = in;
    }

    RemoteThrowable readTopLevel() {
      int tag = in.readUnsignedByte();
      while (tag == 'O') {
        readClassDef();
        tag = in.readUnsignedByte();
      }
      if (tag != 'o') {
        return null;
      }
      String[] def = classDefs.get(readInt(in.readUnsignedByte()));
      className = def[0];
      for (int i = 1; i < def.length; i++) {
        int valueTag = in.readUnsignedByte();
        if (DETAIL_MESSAGE.equals(def[i])) {
          message = valueTag == 'N' ? null : readString(valueTag);
          break; // all we need
        }
        skip(valueTag, 0);
      }
      return new RemoteThrowable(className, message);
    }

    private void readClassDef() {
      int typeLength = readInt(in.readUnsignedByte());
      String name = readChars(typeLength);
      int count = readInt(in.readUnsignedByte());
      if (count < 0 || count > 4096) {
        throw new IllegalStateException("bad field count " + count);
      }
      String[] def = new String[count + 1];
      def[0] = name;
      for (int i = 1; i <= count; i++) {
        def[i] = readString(in.readUnsignedByte());
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

    private String readString(int tag) {
      if (tag <= 0x1f) {
        return readChars(tag);
      }
      StringBuilder sb = new StringBuilder();
      for (;;) {
        if (tag != 'S' && tag != 's') {
          throw new IllegalStateException("expected a string, found tag " + tag);
        }
        sb.append(readChars(in.readUnsignedShort()));
        if (tag == 'S') {
          return sb.toString();
        }
        tag = in.readUnsignedByte();
      }
    }

    private String readChars(int chars) {
      StringBuilder sb = new StringBuilder(chars);
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
      return sb.toString();
    }

    /** Skips the value whose first byte is {@code tag}; throws on anything it does not know. */
    private void skip(int tag, int depth) {
      if (depth > MAX_DEPTH) {
        throw new IllegalStateException("nested too deeply");
      }
      if (tag <= 0x1f || tag == 'S' || tag == 's') {
        readString(tag);
      } else if (tag == 'N' || tag == 'T' || tag == 'F') {
        // no payload
      } else if ((tag >= 0x80 && tag <= 0xd7) || tag == 'I') {
        readInt(tag);
      } else if (tag >= 0xd8 && tag <= 0xef) {
        // one-octet long
      } else if (tag >= 0xf0) {
        in.skipBytes(1);
      } else if (tag >= 0x38 && tag <= 0x3f) {
        in.skipBytes(2);
      } else if (tag == 'L' || tag == 'D' || tag == 'd') {
        in.skipBytes(8);
      } else if (tag == 'R') {
        in.skipBytes(4); // a reference
      } else if (tag == 'O') {
        readClassDef();
        skip(in.readUnsignedByte(), depth + 1);
      } else if (tag == 'o') {
        String[] def = classDefs.get(readInt(in.readUnsignedByte()));
        for (int i = 1; i < def.length; i++) {
          skip(in.readUnsignedByte(), depth + 1);
        }
      } else if (tag == 'V' || tag == 'M') {
        int next = in.readUnsignedByte();
        if (next == 't') {
          in.skipBytes(in.readUnsignedShort()); // the type name, ASCII in practice
          next = in.readUnsignedByte();
        }
        if (next == 'n') {
          in.skipBytes(1);
          next = in.readUnsignedByte();
        } else if (next == 'l') {
          in.skipBytes(4);
          next = in.readUnsignedByte();
        }
        while (next != 'z') {
          skip(next, depth + 1);
          if (tag == 'M') {
            skip(in.readUnsignedByte(), depth + 1);
          }
          next = in.readUnsignedByte();
        }
      } else {
        throw new IllegalStateException("unsupported Hessian tag " + tag);
      }
    }
  }
}
