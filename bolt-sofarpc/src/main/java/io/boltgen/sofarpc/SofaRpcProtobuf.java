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
 * defaults encodes to no bytes. Such a message is therefore written as the one field a protobuf parser skips
 * without keeping a meaning: field {@value #FILLER_FIELD} (the highest number protobuf allows), varint 0.
 * Every protobuf parser, SOFARPC's included, reads it back as the all-default message.
 *
 * <p>Stateless and thread-safe.
 */
public final class SofaRpcProtobuf {

  /** The field number of the filler written for an all-default message; no {@code .proto} should use it. */
  public static final int FILLER_FIELD = (1 << 29) - 1;

  // tag (FILLER_FIELD << 3 | varint) as a varint, then the value 0
  private static final byte[] FILLER = {(byte) 0xf8, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x0f, 0x00};
  private static final String TRUE = "true";

  private SofaRpcProtobuf() {}

  /**
   * The request of a method whose one argument is the message {@code argument} carries.
   *
   * @param argument the argument's message marshaller
   * @param unwrap takes the argument out of the method's argument record
   * @param wrap makes the argument record of an argument
   */
  public static <Q, A> Marshaller<Q> request(Marshaller<A> argument, Function<Q, A> unwrap, Function<A, Q> wrap) {
    return new Request<>(argument, unwrap, wrap);
  }

  /**
   * The answer of a method whose result is the message {@code result} carries; a failure's answer names its
   * class in a header only boltgen peers read: {@code remoteClassName} (the class a peer knows a declared
   * exception by, {@code null} for others, which are named by their own class).
   */
  public static <R> FailureMarshaller<R> response(Marshaller<R> result, Function<Throwable, String> remoteClassName) {
    return new Response<>(result, remoteClassName);
  }

  /** The size of {@code message} as a body: its own, or the filler's when it encodes to no bytes. */
  static <T> int bodySize(Marshaller<T> marshaller, T message) {
    int size = marshaller.encodedSize(message);
    return size == 0 ? FILLER.length : size;
  }

  /** Writes {@code message} as a body: its bytes, or the filler when it encodes to none. */
  static <T> void writeBody(Marshaller<T> marshaller, T message, ByteBuf out) {
    int start = out.writerIndex();
    marshaller.write(message, out);
    if (out.writerIndex() == start) {
      out.writeBytes(FILLER);
    }
  }

  private static final class Request<Q, A> implements Marshaller<Q> {
    private final Marshaller<A> argument;
    private final Function<Q, A> unwrap;
    private final Function<A, Q> wrap;

    Request(Marshaller<A> argument, Function<Q, A> unwrap, Function<A, Q> wrap) {
      this.argument = Objects.requireNonNull(argument, "argument");
      this.unwrap = Objects.requireNonNull(unwrap, "unwrap");
      this.wrap = Objects.requireNonNull(wrap, "wrap");
    }

    @Override
    public byte codecId() {
      return SofaRpc.PROTOBUF;
    }

    @Override
    public int encodedSize(Q value) {
      return bodySize(argument, argumentOf(value));
    }

    @Override
    public void write(Q value, ByteBuf out) {
      writeBody(argument, argumentOf(value), out);
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
    private final Marshaller<R> result;
    private final Function<Throwable, String> remoteClassName;

    Response(Marshaller<R> result, Function<Throwable, String> remoteClassName) {
      this.result = Objects.requireNonNull(result, "result");
      this.remoteClassName = Objects.requireNonNull(remoteClassName, "remoteClassName");
    }

    @Override
    public byte codecId() {
      return SofaRpc.PROTOBUF;
    }

    @Override
    public int encodedSize(R value) {
      return bodySize(result, resultOf(value));
    }

    @Override
    public void write(R value, ByteBuf out) {
      writeBody(result, resultOf(value), out);
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
    public Map<String, String> failureHeaders(Throwable failure) {
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
      String message = failure.getMessage();
      if (message == null) {
        return failure.getClass().getName();
      }
      return message.length() <= SofaRpc.MAX_MESSAGE_CHARS ? message : message.substring(0, SofaRpc.MAX_MESSAGE_CHARS);
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
