package io.boltgen.runtime.internal.wire;

import io.boltgen.hessian.HessianException;
import io.boltgen.hessian.HessianReader;
import io.boltgen.hessian.HessianWriter;
import io.boltgen.hessian.ThrowableFields;
import io.boltgen.runtime.codec.Marshaller;
import io.netty.buffer.ByteBuf;

/**
 * The Hessian of server errors exchanged with SOFABolt peers, whose clients expect the body of a
 * {@code SERVER_EXCEPTION} response to be a Hessian-serialized Throwable (codec 1). The grammar is bolt-hessian's
 * ({@link HessianWriter}, {@link HessianReader}: the draft Hessian 2.0 of SOFABolt's sofa-hessian 3.5.3); what is
 * SOFABolt's is here:
 *
 * <ul>
 *   <li>{@link #SERVER_EXCEPTION} writes a {@code com.alipay.remoting.rpc.exception.RpcServerException}
 *       whose only field is its {@code detailMessage}, cut at {@value #MAX_MESSAGE_CHARS} chars: a SOFABolt
 *       client deserializes it into the cause of its {@code InvokeServerException}.</li>
 *   <li>{@link #readThrowable} reads the class name and {@code detailMessage} of the Throwable a SOFABolt
 *       server sends, skipping its other fields (cause, stack trace, suppressed…) within the reader's limits,
 *       and keeps what it read when the rest is malformed.</li>
 * </ul>
 *
 * <p>Stateless.
 */
final class HessianErrors {

  /** The class SOFABolt servers put in the className (and body) of their error responses. */
  static final String RPC_SERVER_EXCEPTION = "com.alipay.remoting.rpc.exception.RpcServerException";

  /** The longest message written, in chars; longer ones are cut. */
  static final int MAX_MESSAGE_CHARS = 8192;

  /** Writes an RpcServerException with the given detail message, codec {@link Bolt#CODEC_HESSIAN2}. */
  static final Marshaller<String> SERVER_EXCEPTION = new ServerExceptionMarshaller();

  private HessianErrors() {}

  /**
   * Reads the class name and {@code detailMessage} of a Hessian-serialized Throwable from the readable
   * bytes of {@code in} (without moving its reader index), or returns {@code null} when the bytes are
   * not such an object. Unlike {@link HessianReader#readThrowable}, forgiving: when the object turns out malformed
   * or over a limit after its class name, returns what was read before (the message may then be null). Never throws.
   */
  static HessianReader.RemoteThrowable readThrowable(ByteBuf in) {
    ThrowableFields fields = new ThrowableFields();
    String className;
    try {
      className = new HessianReader(in.duplicate()).readFields(fields);
    } catch (HessianException e) {
      className = fields.className(); // what was read before the bytes went wrong
    }
    return className == null ? null : new HessianReader.RemoteThrowable(className, fields.message());
  }

  private static final class ServerExceptionMarshaller implements Marshaller<String> {

    @Override
    public byte codecId() {
      return Bolt.CODEC_HESSIAN2;
    }

    @Override
    public int encodedSize(String message) {
      HessianWriter out = HessianWriter.sizing();
      out.writeThrowable(RPC_SERVER_EXCEPTION, cut(message));
      return out.size();
    }

    @Override
    public void write(String message, ByteBuf out) {
      HessianWriter.to(out).writeThrowable(RPC_SERVER_EXCEPTION, cut(message));
    }

    @Override
    public String read(ByteBuf in) {
      HessianReader.RemoteThrowable t = readThrowable(in);
      return t == null ? null : t.message();
    }
  }

  private static String cut(String message) {
    return message == null || message.length() <= MAX_MESSAGE_CHARS ? message
        : message.substring(0, MAX_MESSAGE_CHARS);
  }
}
