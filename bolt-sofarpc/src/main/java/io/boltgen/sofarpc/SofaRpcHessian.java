package io.boltgen.sofarpc;

import io.boltgen.hessian.HessianException;
import io.boltgen.hessian.HessianReader;
import io.boltgen.hessian.HessianReader.ValueReader;
import io.boltgen.hessian.HessianType;
import io.boltgen.hessian.HessianWriter;
import io.boltgen.hessian.HessianWriter.ValueWriter;
import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.codec.FailureMarshaller;
import io.boltgen.runtime.codec.Marshaller;
import io.boltgen.runtime.support.MessageText;
import io.netty.buffer.ByteBuf;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * SOFARPC's Hessian2 serializer (codec {@value SofaRpc#HESSIAN2}). A request's body is one Hessian stream: a
 * {@code SofaRequest} object ({@code targetAppName, methodName, targetServiceUniqueName, requestProps,
 * methodArgSigs}), then each argument as its own value. An answer's body is a {@code SofaResponse} object
 * ({@code isError, errorMsg, appResponse, responseProps}): the result in {@code appResponse}; an exception the
 * method declares there too, as a Throwable of the class the SOFARPC side knows, with its fields; a JDK exception
 * as itself with its message; any other failure as {@code isError} with its {@code errorMsg}.
 *
 * <p>Generated code supplies the writers and readers of the arguments and the result ({@code XxxBoltSofaRpc}).
 * Stateless and thread-safe.
 */
public final class SofaRpcHessian {

  private SofaRpcHessian() {}

  /**
   * The request of one method.
   *
   * @param uniqueName the service's {@link SofaRpc#uniqueName unique name}
   * @param targetApp the provider's application, or empty
   * @param invokeType {@code sync}, {@code future}, {@code callback} or {@code oneway}
   * @param app this side's application, or empty
   * @param argSigs the Java type names of the declared parameters, which a provider finds the method by
   * @param arguments writes every argument of the argument record, in order
   * @param reader reads every argument, in order, into the argument record
   */
  public static <Q> Marshaller<Q> request(String uniqueName, String methodName, String targetApp, String invokeType,
      String app, List<String> argSigs, ValueWriter<Q> arguments, ValueReader<Q> reader) {
    return new HessianRequest<>(new RequestEnvelope(uniqueName, methodName, targetApp, invokeType, app, argSigs),
        arguments, reader);
  }

  /**
   * The answer of one method.
   *
   * @param result writes the result
   * @param reader reads the result
   * @param resultClass the SOFARPC class of the result when it is a record or an enum, else {@code null}: an
   *     object of any other class in {@code appResponse} is the exception a provider threw
   * @param declared the exceptions the method declares, a subclass before its superclasses: written and read
   *     whole, with their fields
   */
  public static <R> FailureMarshaller<R> response(ValueWriter<R> result, ValueReader<R> reader, String resultClass,
      List<DeclaredException<?>> declared) {
    return new HessianResponse<>(result, reader, resultClass, declared);
  }

  /**
   * An exception a method declares, as the SOFARPC side's class: its Java class, and the generated
   * {@code HessianType} that writes and reads it with its {@code detailMessage} and its own fields.
   *
   * @param javaClass the exception's class, which a failure is tested against ({@code isInstance})
   * @param type its Hessian form, whose class name is the SOFARPC side's
   */
  public record DeclaredException<X extends Throwable>(Class<X> javaClass, HessianType<X> type) {
    /** Checks that neither part is null. */
    public DeclaredException {
      Objects.requireNonNull(javaClass, "javaClass");
      Objects.requireNonNull(type, "type");
    }

    /** Writes {@code failure}, an instance of {@link #javaClass}. */
    void write(HessianWriter out, Throwable failure) {
      out.writeObject(type, javaClass.cast(failure));
    }
  }

  /**
   * The {@code detailMessage} a declared exception is written with: its message, cut to
   * {@link SofaRpc#MAX_MESSAGE_CHARS}.
   */
  public static String detailMessage(Throwable failure) {
    String message = failure.getMessage();
    return message == null || message.length() <= SofaRpc.MAX_MESSAGE_CHARS ? message
        : message.substring(0, SofaRpc.MAX_MESSAGE_CHARS);
  }

  /**
   * A set a peer sent as a list (sofa-hessian writes a {@code HashSet} as a typed list), in its order; null stays
   * null.
   */
  public static <E> Set<E> toSet(List<E> list) {
    return list == null ? null : new LinkedHashSet<>(list);
  }

  /** Writes a {@code char[]} as sofa-hessian writes one: a string of its characters ({@code null} as null). */
  public static void writeChars(HessianWriter out, char[] chars) {
    out.writeString(chars == null ? null : new String(chars));
  }

  /** Reads a {@code char[]}, which a peer sends as a string of its characters; null stays null. */
  public static char[] readChars(HessianReader in) {
    String text = in.readString();
    return text == null ? null : text.toCharArray();
  }

  /** Reads the result of a {@code void} method: skips it. */
  public static Void readNothing(HessianReader in) {
    in.skipValue();
    return null;
  }

  // ------------------------------------------------------------------ boxed values ('N' for null)

  /** Writes a {@code Boolean}, {@code null} as {@code 'N'}. */
  public static void writeBox(HessianWriter out, Boolean value) {
    if (value == null) {
      out.writeNull();
    } else {
      out.writeBoolean(value);
    }
  }

  /** Writes a {@code Byte} as an int, {@code null} as {@code 'N'}. */
  public static void writeBox(HessianWriter out, Byte value) {
    writeBox(out, value == null ? null : Integer.valueOf(value));
  }

  /** Writes a {@code Short} as an int, {@code null} as {@code 'N'}. */
  public static void writeBox(HessianWriter out, Short value) {
    writeBox(out, value == null ? null : Integer.valueOf(value));
  }

  /** Writes a {@code Character} as sofa-hessian does, a string of that one character; {@code null} as {@code 'N'}. */
  public static void writeBox(HessianWriter out, Character value) {
    out.writeString(value == null ? null : String.valueOf(value.charValue()));
  }

  /** Writes an {@code Integer}, {@code null} as {@code 'N'}. */
  public static void writeBox(HessianWriter out, Integer value) {
    if (value == null) {
      out.writeNull();
    } else {
      out.writeInt(value);
    }
  }

  /** Writes a {@code Long}, {@code null} as {@code 'N'}. */
  public static void writeBox(HessianWriter out, Long value) {
    if (value == null) {
      out.writeNull();
    } else {
      out.writeLong(value);
    }
  }

  /** Writes a {@code Float} as a double, {@code null} as {@code 'N'}. */
  public static void writeBox(HessianWriter out, Float value) {
    writeBox(out, value == null ? null : Double.valueOf(value));
  }

  /** Writes a {@code Double}, {@code null} as {@code 'N'}. */
  public static void writeBox(HessianWriter out, Double value) {
    if (value == null) {
      out.writeNull();
    } else {
      out.writeDouble(value);
    }
  }

  /** Reads a {@code Boolean}; {@code 'N'} gives null. */
  public static Boolean readBooleanBox(HessianReader in) {
    return in.readNull() ? null : in.readBoolean();
  }

  /** Reads a {@code Byte} from an int that must fit one ({@link #toByte}); {@code 'N'} gives null. */
  public static Byte readByteBox(HessianReader in, String what) {
    return in.readNull() ? null : toByte(in.readInt(), what);
  }

  /** Reads a {@code Short} from an int that must fit one ({@link #toShort}); {@code 'N'} gives null. */
  public static Short readShortBox(HessianReader in, String what) {
    return in.readNull() ? null : toShort(in.readInt(), what);
  }

  /**
   * {@code value}, an int a peer sent for the byte {@code what} (a record's component, an argument, a result):
   * refused, naming {@code what}, unless a byte holds it (a peer whose field is an int may send more).
   *
   * @throws HessianException when it does not fit
   */
  public static byte toByte(int value, String what) {
    if (value != (byte) value) {
      throw new HessianException(what + ": " + value + " does not fit a byte");
    }
    return (byte) value;
  }

  /** {@code value} as the short {@code what}, refused unless a short holds it (see {@link #toByte}). */
  public static short toShort(int value, String what) {
    if (value != (short) value) {
      throw new HessianException(what + ": " + value + " does not fit a short");
    }
    return (short) value;
  }

  /**
   * {@code text}, the string a peer sent for the char {@code what} (Hessian2 has no char: sofa-hessian writes a
   * string of one character): refused, naming {@code what}, unless it is exactly one character.
   */
  public static char toChar(String text, String what) {
    if (text == null || text.length() != 1) {
      throw new HessianException(what + ": " + (text == null ? "null" : "a string of " + text.length()
          + " characters") + " is not one char");
    }
    return text.charAt(0);
  }

  /**
   * {@code value}, a double a peer sent for the float {@code what} (Hessian2 has no float): refused unless a float
   * holds it exactly (what a float written by a peer always is; a peer's double field may send more).
   */
  public static float toFloat(double value, String what) {
    float f = (float) value;
    if (f != value && !Double.isNaN(value)) {
      throw new HessianException(what + ": " + value + " does not fit a float");
    }
    return f;
  }

  /** Reads a {@code Character} from a string of one character ({@link #toChar}); {@code 'N'} gives null. */
  public static Character readCharBox(HessianReader in, String what) {
    String text = in.readString();
    return text == null ? null : toChar(text, what);
  }

  /** Reads an {@code Integer}; {@code 'N'} gives null. */
  public static Integer readIntBox(HessianReader in) {
    return in.readNull() ? null : in.readInt();
  }

  /** Reads a {@code Long}; {@code 'N'} gives null. */
  public static Long readLongBox(HessianReader in) {
    return in.readNull() ? null : in.readLong();
  }

  /** Reads a {@code Float} from a double that a float holds ({@link #toFloat}); {@code 'N'} gives null. */
  public static Float readFloatBox(HessianReader in, String what) {
    return in.readNull() ? null : toFloat(in.readDouble(), what);
  }

  /** Reads a {@code Double}; {@code 'N'} gives null. */
  public static Double readDoubleBox(HessianReader in) {
    return in.readNull() ? null : in.readDouble();
  }

  // ------------------------------------------------------------------ marshallers

  private static final class HessianRequest<Q> implements Marshaller<Q> {
    private final RequestEnvelope envelope;
    private final ValueWriter<Q> arguments;
    private final ValueReader<Q> reader;

    HessianRequest(RequestEnvelope envelope, ValueWriter<Q> arguments, ValueReader<Q> reader) {
      this.envelope = envelope;
      this.arguments = Objects.requireNonNull(arguments, "arguments");
      this.reader = Objects.requireNonNull(reader, "reader");
    }

    @Override
    public byte codecId() {
      return SofaRpc.HESSIAN2;
    }

    @Override
    public int encodedSize(Q value) {
      HessianWriter out = HessianWriter.sizing();
      write(out, value);
      return out.size();
    }

    @Override
    public void write(Q value, ByteBuf buf) {
      write(HessianWriter.to(buf), value);
    }

    private void write(HessianWriter out, Q value) {
      out.writeObject(RequestEnvelope.TYPE, envelope);
      arguments.write(out, value);
    }

    @Override
    public Q read(ByteBuf in) {
      HessianReader hessian = new HessianReader(in);
      try {
        RequestEnvelope sent = hessian.readObject(RequestEnvelope.TYPE);
        envelope.check(sent);
        return reader.read(hessian);
      } catch (HessianException e) {
        throw quoted(e);
      }
    }
  }

  /**
   * {@code e} with the text the peer sent, which the reader keeps out of its messages
   * ({@link HessianException#peerText}), quoted into its message; {@code e} itself when there is none.
   */
  static HessianException quoted(HessianException e) {
    return e.peerText() == null ? e : new HessianException(e.getMessage() + ": " + MessageText.quote(e.peerText()), e);
  }

  private static final class HessianResponse<R> implements FailureMarshaller<R> {
    private final ResponseEnvelope.Type<R> type;

    HessianResponse(ValueWriter<R> result, ValueReader<R> reader, String resultClass,
        List<DeclaredException<?>> declared) {
      this.type = new ResponseEnvelope.Type<>(Objects.requireNonNull(result, "result"),
          Objects.requireNonNull(reader, "reader"), resultClass, Objects.requireNonNull(declared, "declared"));
    }

    @Override
    public byte codecId() {
      return SofaRpc.HESSIAN2;
    }

    @Override
    public int encodedSize(R value) {
      HessianWriter out = HessianWriter.sizing();
      out.writeObject(type, ResponseEnvelope.of(value));
      return out.size();
    }

    @Override
    public void write(R value, ByteBuf buf) {
      HessianWriter.to(buf).writeObject(type, ResponseEnvelope.of(value));
    }

    @Override
    public Throwable unknownService(String service) {
      return ProviderError.unknownService(service);
    }

    @Override
    public Map<String, String> failureHeaders(Throwable failure) {
      if (failure instanceof ProviderError) {
        return Map.of(SofaRpc.RESPONSE_ERROR, "true");
      }
      DeclaredException<?> declared = type.declaredFor(failure);
      return Map.of(SofaRpc.RESPONSE_ERROR, "true", SofaRpc.ERROR_CLASS,
          declared != null ? declared.type().hessianClass().className() : failure.getClass().getName());
    }

    @Override
    public int failureSize(Throwable failure) {
      HessianWriter out = HessianWriter.sizing();
      out.writeObject(type, failure(failure));
      return out.size();
    }

    @Override
    public void writeFailure(Throwable failure, ByteBuf buf) {
      HessianWriter.to(buf).writeObject(type, failure(failure));
    }

    /**
     * A declared exception, with its fields under the name the consumer knows it by, or one of the JDK's (every
     * consumer has its class) with its message: the exception itself, as a SOFARPC provider answers it, which the
     * consumer throws typed. The provider's own errors as they stand. Anything else: a provider error naming it
     * (the consumer could not make the class).
     */
    private ResponseEnvelope<R> failure(Throwable failure) {
      if (failure instanceof ProviderError) {
        return ResponseEnvelope.error(failure.getMessage());
      }
      DeclaredException<?> declared = type.declaredFor(failure);
      String message = detailMessage(failure);
      if (declared != null) {
        return ResponseEnvelope.thrown(declared.type().hessianClass().className(), message, failure);
      }
      if (failure.getClass().getName().startsWith("java.")) {
        return ResponseEnvelope.thrown(failure.getClass().getName(), message, null);
      }
      return ResponseEnvelope.error(failure.getClass().getName() + (message == null ? "" : ": " + message));
    }

    @Override
    public R read(ByteBuf in) {
      return read(in, Map.of());
    }

    @Override
    public R read(ByteBuf in, Map<String, String> headers) {
      ResponseEnvelope<R> answer;
      try {
        answer = new HessianReader(in).readObject(type);
      } catch (HessianException e) {
        throw quoted(e);
      }
      if (answer == null) {
        throw new IllegalArgumentException("the answer is null, not a SofaResponse");
      }
      if (answer.isError()) {
        throw new BoltException(ResponseStatus.SERVER_EXCEPTION, "the SOFARPC provider failed: "
            + MessageText.shorten(answer.errorMsg()), null, answer.errorMsg(), null, 0, null);
      }
      if (answer.thrownClass() != null) {
        throw new BoltException(ResponseStatus.SERVER_EXCEPTION, "the SOFARPC provider threw "
            + MessageText.shorten(answer.thrownClass())
            + (answer.thrownMessage() == null ? "" : ": " + MessageText.shorten(answer.thrownMessage())),
            answer.thrownClass(), answer.thrownMessage(), null, 0, null, answer.thrown());
      }
      return answer.result();
    }
  }
}
