package io.boltgen.sofarpc;

import io.boltgen.hessian.HessianClass;
import io.boltgen.hessian.HessianReader;
import io.boltgen.hessian.HessianType;
import io.boltgen.hessian.HessianWriter;
import io.boltgen.runtime.support.MessageText;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * SOFARPC's {@code SofaRequest} object at the head of a Hessian2 request: which service and method, the
 * declared argument types, the consumer's request properties. Immutable.
 */
final class RequestEnvelope {

  static final HessianClass CLASS = HessianClass.of(SofaRpc.REQUEST_CLASS, "targetAppName", "methodName",
      "targetServiceUniqueName", "requestProps", "methodArgSigs");

  /** How the envelope is written and read; one per process. */
  static final HessianType<RequestEnvelope> TYPE = new HessianType<>() {
    @Override
    public HessianClass hessianClass() {
      return CLASS;
    }

    @Override
    public void writeFields(HessianWriter out, RequestEnvelope value) {
      out.writeString(value.targetApp.isEmpty() ? null : value.targetApp);
      out.writeString(value.methodName);
      out.writeString(value.uniqueName);
      out.writeMap("", value.props, HessianWriter::writeString, HessianWriter::writeString);
      out.writeList("[string", value.argSigs, HessianWriter::writeString);
    }

    @Override
    public RequestEnvelope readFields(HessianReader in, HessianClass sent) {
      String targetApp = null;
      String methodName = null;
      String uniqueName = null;
      List<String> argSigs = null;
      for (int i = 0; i < sent.fieldCount(); i++) {
        switch (sent.fieldName(i)) {
          case "targetAppName" -> targetApp = in.readString();
          case "methodName" -> methodName = in.readString();
          case "targetServiceUniqueName" -> uniqueName = in.readString();
          case "methodArgSigs" -> argSigs = in.readList(HessianReader::readString);
          default -> in.skipValue(); // requestProps and anything newer: not needed to serve the call
        }
      }
      return new RequestEnvelope(uniqueName, methodName, targetApp == null ? "" : targetApp, Map.of(),
          argSigs == null ? List.of() : argSigs);
    }
  };

  final String uniqueName;
  final String methodName;
  final String targetApp;
  final Map<String, String> props;
  final List<String> argSigs;

  RequestEnvelope(String uniqueName, String methodName, String targetApp, String invokeType, String app,
      List<String> argSigs) {
    this(uniqueName, methodName, targetApp, props(invokeType, app), List.copyOf(argSigs));
  }

  private RequestEnvelope(String uniqueName, String methodName, String targetApp, Map<String, String> props,
      List<String> argSigs) {
    this.uniqueName = uniqueName;
    this.methodName = methodName;
    this.targetApp = targetApp;
    this.props = props;
    this.argSigs = argSigs;
  }

  // the consumer's request properties, which SOFARPC repeats in the header (see SofaRpc.requestHeaders)
  private static Map<String, String> props(String invokeType, String app) {
    Map<String, String> props = new LinkedHashMap<>();
    props.put("protocol", "bolt");
    props.put("type", invokeType);
    if (!app.isEmpty()) {
      props.put("app", app);
    }
    return props;
  }

  /**
   * Checks that {@code sent}, read from a request, asks for this method with these argument types (SOFARPC
   * finds a method by name and argument types).
   *
   * @throws IllegalArgumentException if it does not, naming what it asked for
   */
  void check(RequestEnvelope sent) {
    if (sent == null) {
      throw new IllegalArgumentException("the request's SofaRequest is null");
    }
    if (!uniqueName.equals(sent.uniqueName) || !methodName.equals(sent.methodName)) {
      throw new IllegalArgumentException("the request's SofaRequest asks for " + MessageText.quote(
          String.valueOf(sent.uniqueName)) + " method " + MessageText.quote(String.valueOf(sent.methodName))
          + ", not " + uniqueName + " method " + methodName + " as its header says");
    }
    if (!argSigs.equals(sent.argSigs)) {
      throw new IllegalArgumentException("method " + methodName + " of " + uniqueName + " takes " + argSigs
          + ", but the request declares the argument types " + MessageText.quote(String.valueOf(sent.argSigs)));
    }
  }
}
