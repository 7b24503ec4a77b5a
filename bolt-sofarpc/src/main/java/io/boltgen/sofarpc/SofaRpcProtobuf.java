package io.boltgen.sofarpc;

import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.codec.FailureMarshaller;
import io.boltgen.runtime.codec.Marshaller;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * SOFARPC's protobuf serializer (codec {@value SofaRpc#PROTOBUF}): a request's body is its one argument's
 * message, an answer's body is the result's message, and a failure is answered as its message in UTF-8 with
 * the header {@code sofa_head_response_error=true}.
 *
 * <p>SOFARPC refuses an empty body ("Content of request is null"), and a message whose fields all hold their
 * defaults encodes to no bytes. Such a message is therefore written as one of its own fields at its default
 * value: a field without presence (a plain number, or a packed repeated field, empty), which every protobuf
 * parser reads back as the default instance, equal to it. The generated code names that field by its tag
 * ({@code defaultTag}); a message that has no such field (every field a string, a box, a message) is written as
 * the filler instead, field {@value #FILLER_FIELD} (the highest number protobuf allows), varint 0, which a
 * parser keeps as an unknown field.
 *
 * <p>Stateless and thread-safe.
 */
public final class SofaRpcProtobuf {

  /** The field number of the filler written for an all-default message; no {@code .proto} should use it. */
  public static final int FILLER_FIELD = (1 << 29) - 1;

  private static final String TRUE = "true";

  private SofaRpcProtobuf() {}

  /**
   * The request of a method whose one argument is the message {@code argument} carries.
   *
   * @param argument the argument's message marshaller
   * @param unwrap takes the argument out of the method's argument record
   * @param wrap makes the argument record of an argument
   * @param defaultTag the tag of the field an all-default argument is written as, at its default; 0: the filler
   */
  public static <Q, A> Marshaller<Q> request(Marshaller<A> argument, Function<Q, A> unwrap, Function<A, Q> wrap,
      int defaultTag) {
    return new Request<>(new Body<>(argument, defaultTag), unwrap, wrap);
  }

  /**
   * The answer of a method whose result is the message {@code result} carries; a failure's answer names its
   * class in a header only boltgen peers read: {@code remoteClassName} (the class a peer knows a declared
   * exception by, {@code null} for others, which are named by their own class); an all-default result is written
   * as the field of {@code defaultTag} at its default (0: the filler).
   */
  public static <R> FailureMarshaller<R> response(Marshaller<R> result, Function<Throwable, String> remoteClassName,
      int defaultTag) {
    return new Response<>(new Body<>(result, defaultTag), remoteClassName);
  }

  /** A message as a body: its bytes, or, when it encodes to none, one field at its default (or the filler). */
  private static final class Body<T> {
    private final Marshaller<T> message;
    private final byte[] whenDefault;

    Body(Marshaller<T> message, int defaultTag) {
      this.message = Objects.requireNonNull(message, "message");
      this.whenDefault = defaultField(defaultTag);
    }

    int size(T value) {
      int size = message.encodedSize(value);
      return size == 0 ? whenDefault.length : size;
    }

    void write(T value, ByteBuf out) {
      int start = out.writerIndex();
      message.write(value, out);
      if (out.writerIndex() == start) {
        out.writeBytes(whenDefault);
      }
    }

    T read(ByteBuf in) {
      return message.read(in);
    }
  }

  /**
   * The bytes of the field {@code tag} names at its default: the tag, then a varint 0, eight or four zero bytes,
   * or length 0 (an empty string, or an empty packed list); for tag 0, the filler field.
   */
  static byte[] defaultField(int tag) {
    if (tag == 0) {
      tag = FILLER_FIELD << 3;
    }
    int wireType = tag & 7;
    int valueLength = wireType == 1 ? 8 : wireType == 5 ? 4 : 1;
    if (tag >>> 3 == 0 || tag >>> 3 > FILLER_FIELD || (wireType != 0 && wireType != 1 && wireType != 2
        && wireType != 5)) {
      throw new IllegalArgumentException("not the tag of a field that has a default: " + tag);
    }
    byte[] bytes = new byte[varintSize(tag) + valueLength];
    int p = 0;
    for (int v = tag; ; v >>>= 7) {
      if ((v & ~0x7F) == 0) {
        bytes[p] = (byte) v;
        break;
      }
      bytes[p++] = (byte) ((v & 0x7F) | 0x80);
    }
    return bytes; // the value bytes are zero
  }

  private static int varintSize(int value) {
    int n = 1;
    while ((value & ~0x7F) != 0) {
      value >>>= 7;
      n++;
    }
    return n;
  }

  private static final class Request<Q, A> implements Marshaller<Q> {
    private final Body<A> argument;
    private final Function<Q, A> unwrap;
    private final Function<A, Q> wrap;

    Request(Body<A> argument, Function<Q, A> unwrap, Function<A, Q> wrap) {
      this.argument = argument;
      this.unwrap = Objects.requireNonNull(unwrap, "unwrap");
      this.wrap = Objects.requireNonNull(wrap, "wrap");
    }

    @Override
    public byte codecId() {
      return SofaRpc.PROTOBUF;
    }

    @Override
    public int encodedSize(Q value) {
      return argument.size(argumentOf(value));
    }

    @Override
    public void write(Q value, ByteBuf out) {
      argument.write(argumentOf(value), out);
    }

    private A argumentOf(Q value) {
      A a = unwrap.apply(value);
      if (a == null) {
        throw new IllegalArgumentException("SOFARPC's protobuf serializer cannot send a null argument");
      }
      return a;
    }

    @Override
    public Q read(ByteBuf in) {
      return wrap.apply(argument.read(in));
    }
  }

  private static final class Response<R> implements FailureMarshaller<R> {
    private final Body<R> result;
    private final Function<Throwable, String> remoteClassName;

    Response(Body<R> result, Function<Throwable, String> remoteClassName) {
      this.result = result;
      this.remoteClassName = Objects.requireNonNull(remoteClassName, "remoteClassName");
    }

    @Override
    public byte codecId() {
      return SofaRpc.PROTOBUF;
    }

    @Override
    public int encodedSize(R value) {
      return result.size(resultOf(value));
    }

    @Override
    public void write(R value, ByteBuf out) {
      result.write(resultOf(value), out);
    }

    private static <R> R resultOf(R value) {
      if (value == null) {
        throw new IllegalArgumentException("SOFARPC's protobuf serializer cannot answer null");
      }
      return value;
    }

    @Override
    public R read(ByteBuf in) {
      return result.read(in);
    }

    @Override
    public Throwable unknownService(String service) {
      return ProviderError.unknownService(service);
    }

    @Override
    public Map<String, String> failureHeaders(Throwable failure) {
      if (failure instanceof ProviderError) {
        return Map.of(SofaRpc.RESPONSE_ERROR, TRUE);
      }
      String name = remoteClassName.apply(failure);
      return Map.of(SofaRpc.RESPONSE_ERROR, TRUE, SofaRpc.ERROR_CLASS, name != null ? name : failure.getClass().getName());
    }

    @Override
    public int failureSize(Throwable failure) {
      return ByteBufUtil.utf8Bytes(message(failure));
    }

    @Override
    public void writeFailure(Throwable failure, ByteBuf out) {
      String message = message(failure);
      // reserve the exact size: writeCharSequence reserves 3 bytes per char, more than a frame of exact size holds
      ByteBufUtil.reserveAndWriteUtf8(out, message, ByteBufUtil.utf8Bytes(message));
    }

    private static String message(Throwable failure) {
      String message = SofaRpcHessian.detailMessage(failure); // cut as every dialect answer is
      return message == null ? failure.getClass().getName() : message;
    }

    @Override
    public R read(ByteBuf in, Map<String, String> headers) {
      if (!TRUE.equals(headers.get(SofaRpc.RESPONSE_ERROR))) {
        return result.read(in);
      }
      String message = in.toString(StandardCharsets.UTF_8);
      String remoteClass = headers.get(SofaRpc.ERROR_CLASS);
      throw new BoltException(ResponseStatus.SERVER_EXCEPTION, "the SOFARPC provider answered with a failure: "
          + (remoteClass == null ? "" : remoteClass + ": ") + message, remoteClass, message, null, 0, null);
    }
  }
}
