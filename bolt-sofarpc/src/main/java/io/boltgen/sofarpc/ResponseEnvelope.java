package io.boltgen.sofarpc;

import io.boltgen.sofarpc.hessian.HessianClass;
import io.boltgen.sofarpc.hessian.HessianReader;
import io.boltgen.sofarpc.hessian.HessianType;
import io.boltgen.sofarpc.hessian.HessianWriter;

/**
 * SOFARPC's {@code SofaResponse} object, the body of a Hessian2 answer: a result, an exception the provider
 * threw ({@code thrownClass}), or a failure of the provider itself ({@code isError}).
 *
 * @param thrownClass the class of the Throwable in {@code appResponse}, or {@code null}
 */
record ResponseEnvelope<R>(boolean isError, String errorMsg, R result, String thrownClass, String thrownMessage) {

  static final HessianClass CLASS =
      HessianClass.of(SofaRpc.RESPONSE_CLASS, "isError", "errorMsg", "appResponse", "responseProps");

  static <R> ResponseEnvelope<R> of(R result) {
    return new ResponseEnvelope<>(false, null, result, null, null);
  }

  static <R> ResponseEnvelope<R> thrown(String className, String message) {
    return new ResponseEnvelope<>(false, null, null, className, message);
  }

  static <R> ResponseEnvelope<R> error(String message) {
    return new ResponseEnvelope<>(true, message, null, null, null);
  }

  /** The envelope of one method's answers: writes and reads its result with the method's generated code. */
  static final class Type<R> implements HessianType<ResponseEnvelope<R>> {
    private final HessianWriter.ValueWriter<R> writer;
    private final HessianReader.ValueReader<R> reader;
    private final String resultClass;

    Type(HessianWriter.ValueWriter<R> writer, HessianReader.ValueReader<R> reader, String resultClass) {
      this.writer = writer;
      this.reader = reader;
      this.resultClass = resultClass;
    }

    @Override
    public HessianClass hessianClass() {
      return CLASS;
    }

    @Override
    public void writeFields(HessianWriter out, ResponseEnvelope<R> value) {
      out.writeBoolean(value.isError());
      out.writeString(value.errorMsg());
      if (value.thrownClass() != null) {
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
      for (int i = 0; i < sent.fieldCount(); i++) {
        switch (sent.fieldName(i)) {
          case "isError" -> isError = in.readBoolean();
          case "errorMsg" -> errorMsg = in.readString();
          case "appResponse" -> {
            String objectClass = in.nextObjectClassName();
            if (objectClass != null && !objectClass.equals(resultClass)) {
              HessianReader.RemoteThrowable thrown = in.readThrowable();
              thrownClass = thrown.className();
              thrownMessage = thrown.message();
            } else {
              result = reader.read(in);
            }
          }
          default -> in.skipValue(); // responseProps and anything newer
        }
      }
      return new ResponseEnvelope<>(isError, errorMsg, result, thrownClass, thrownMessage);
    }
  }
}
