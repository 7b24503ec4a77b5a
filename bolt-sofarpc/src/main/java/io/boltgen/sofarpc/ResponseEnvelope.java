package io.boltgen.sofarpc;

import io.boltgen.hessian.HessianClass;
import io.boltgen.hessian.HessianReader;
import io.boltgen.hessian.HessianType;
import io.boltgen.hessian.HessianWriter;
import io.boltgen.sofarpc.SofaRpcHessian.DeclaredException;
import java.util.List;

/**
 * SOFARPC's {@code SofaResponse} object, the body of a Hessian2 answer: a result, an exception the provider
 * threw ({@code thrownClass}), or a failure of the provider itself ({@code isError}).
 *
 * @param thrownClass the class of the Throwable in {@code appResponse}, or {@code null}
 * @param thrown a declared exception, written or read whole with its fields; {@code null} for any other
 */
record ResponseEnvelope<R>(boolean isError, String errorMsg, R result, String thrownClass, String thrownMessage,
    Throwable thrown) {

  static final HessianClass CLASS =
      HessianClass.of(SofaRpc.RESPONSE_CLASS, "isError", "errorMsg", "appResponse", "responseProps");

  static <R> ResponseEnvelope<R> of(R result) {
    return new ResponseEnvelope<>(false, null, result, null, null, null);
  }

  static <R> ResponseEnvelope<R> thrown(String className, String message, Throwable declared) {
    return new ResponseEnvelope<>(false, null, null, className, message, declared);
  }

  static <R> ResponseEnvelope<R> error(String message) {
    return new ResponseEnvelope<>(true, message, null, null, null, null);
  }

  /**
   * The envelope of one method's answers: writes and reads its result with the method's generated code, and its
   * declared exceptions with theirs.
   */
  static final class Type<R> implements HessianType<ResponseEnvelope<R>> {
    private final HessianWriter.ValueWriter<R> writer;
    private final HessianReader.ValueReader<R> reader;
    private final String resultClass;
    private final List<DeclaredException<?>> declared;

    Type(HessianWriter.ValueWriter<R> writer, HessianReader.ValueReader<R> reader, String resultClass,
        List<DeclaredException<?>> declared) {
      this.writer = writer;
      this.reader = reader;
      this.resultClass = resultClass;
      this.declared = List.copyOf(declared);
    }

    /** The declared exception {@code failure} is an instance of (the first that matches), or {@code null}. */
    DeclaredException<?> declaredFor(Throwable failure) {
      for (DeclaredException<?> d : declared) {
        if (d.javaClass().isInstance(failure)) {
          return d;
        }
      }
      return null;
    }

    private DeclaredException<?> declaredNamed(String className) {
      for (DeclaredException<?> d : declared) {
        if (d.type().hessianClass().className().equals(className)) {
          return d;
        }
      }
      return null;
    }

    @Override
    public HessianClass hessianClass() {
      return CLASS;
    }

    @Override
    public void writeFields(HessianWriter out, ResponseEnvelope<R> value) {
      out.writeBoolean(value.isError());
      out.writeString(value.errorMsg());
      DeclaredException<?> d = value.thrown() == null ? null : declaredFor(value.thrown());
      if (d != null) {
        d.write(out, value.thrown());
      } else if (value.thrownClass() != null) {
        out.writeThrowable(value.thrownClass(), value.thrownMessage());
      } else if (value.isError()) {
        out.writeNull();
      } else {
        writer.write(out, value.result());
      }
      out.writeNull(); // responseProps
    }

    @Override
    public ResponseEnvelope<R> readFields(HessianReader in, HessianClass sent) {
      boolean isError = false;
      String errorMsg = null;
      R result = null;
      String thrownClass = null;
      String thrownMessage = null;
      Throwable thrown = null;
      for (int i = 0; i < sent.fieldCount(); i++) {
        switch (sent.fieldName(i)) {
          case "isError" -> isError = in.readBoolean();
          case "errorMsg" -> errorMsg = in.readString();
          case "appResponse" -> {
            String objectClass = in.nextObjectClassName();
            DeclaredException<?> d = objectClass == null ? null : declaredNamed(objectClass);
            if (d != null) {
              thrown = in.readObject(d.type());
              thrownClass = objectClass;
              thrownMessage = thrown == null ? null : thrown.getMessage();
            } else if (objectClass != null && !objectClass.equals(resultClass)) {
              HessianReader.RemoteThrowable remote = in.readThrowable();
              thrownClass = remote.className();
              thrownMessage = remote.message();
            } else {
              result = reader.read(in);
            }
          }
          default -> in.skipValue(); // responseProps and anything newer
        }
      }
      return new ResponseEnvelope<>(isError, errorMsg, result, thrownClass, thrownMessage, thrown);
    }
  }
}
