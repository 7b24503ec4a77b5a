package io.boltgen.processor;

import java.util.Map;

/**
 * The {@code .proto} names and files of protobuf's well-known types, known without looking: protobuf-java
 * ships their classes compiled, with no sources and under names no descriptor lookup is needed for. Other
 * protobuf-java messages are looked up by {@link ProtoDescriptors}.
 */
final class WellKnownTypes {

  /** Java class in {@code com.google.protobuf} → its {@code .proto} file under {@code google/protobuf/}. */
  private static final Map<String, String> FILES = Map.ofEntries(
      Map.entry("Any", "any.proto"),
      Map.entry("Api", "api.proto"),
      Map.entry("Method", "api.proto"),
      Map.entry("Mixin", "api.proto"),
      Map.entry("Duration", "duration.proto"),
      Map.entry("Empty", "empty.proto"),
      Map.entry("FieldMask", "field_mask.proto"),
      Map.entry("SourceContext", "source_context.proto"),
      Map.entry("Struct", "struct.proto"),
      Map.entry("Value", "struct.proto"),
      Map.entry("ListValue", "struct.proto"),
      Map.entry("Timestamp", "timestamp.proto"),
      Map.entry("Type", "type.proto"),
      Map.entry("Field", "type.proto"),
      Map.entry("Enum", "type.proto"),
      Map.entry("EnumValue", "type.proto"),
      Map.entry("Option", "type.proto"),
      Map.entry("DoubleValue", "wrappers.proto"),
      Map.entry("FloatValue", "wrappers.proto"),
      Map.entry("Int64Value", "wrappers.proto"),
      Map.entry("UInt64Value", "wrappers.proto"),
      Map.entry("Int32Value", "wrappers.proto"),
      Map.entry("UInt32Value", "wrappers.proto"),
      Map.entry("BoolValue", "wrappers.proto"),
      Map.entry("StringValue", "wrappers.proto"),
      Map.entry("BytesValue", "wrappers.proto"));

  static final String TIMESTAMP = ".google.protobuf.Timestamp";
  static final String TIMESTAMP_FILE = "google/protobuf/timestamp.proto";
  static final String DURATION = ".google.protobuf.Duration";
  static final String DURATION_FILE = "google/protobuf/duration.proto";

  private WellKnownTypes() {}

  /** The proto file of the protobuf-java class {@code qualifiedName}, or {@code null} when not well-known. */
  static String file(String qualifiedName) {
    if (!qualifiedName.startsWith("com.google.protobuf.")) {
      return null;
    }
    String file = FILES.get(qualifiedName.substring("com.google.protobuf.".length()));
    return file == null ? null : "google/protobuf/" + file;
  }

  /**
   * The {@code .proto} text of the well-known file {@code file} that a service may use without protobuf-java on its
   * class path (for {@code Instant} and {@code Duration}), as far as descriptors need it; else {@code null}.
   */
  static String builtIn(String file) {
    String message = file.equals(TIMESTAMP_FILE) ? "Timestamp" : file.equals(DURATION_FILE) ? "Duration" : null;
    return message == null ? null : "syntax = \"proto3\";\npackage google.protobuf;\nmessage " + message
        + " {\n  int64 seconds = 1;\n  int32 nanos = 2;\n}\n";
  }

  /** A protobuf-java class declared in the well-known {@code .proto} file {@code file}, or {@code null}. */
  static String javaClass(String file) {
    for (Map.Entry<String, String> entry : FILES.entrySet()) {
      if (file.equals("google/protobuf/" + entry.getValue())) {
        return "com.google.protobuf." + entry.getKey();
      }
    }
    return null;
  }

  /** The fully qualified proto name (leading dot) of the well-known protobuf-java class {@code qualifiedName}. */
  static String protoName(String qualifiedName) {
    return "." + qualifiedName.replace("com.google.protobuf.", "google.protobuf.");
  }
}
