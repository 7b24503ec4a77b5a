package io.boltgen.runtime.internal.grpc;

import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.MethodType;
import io.boltgen.runtime.Publishers;
import io.boltgen.runtime.ServiceDefinition;
import io.boltgen.runtime.ServiceDescriptor;
import io.boltgen.runtime.codec.Marshaller;
import io.boltgen.runtime.codec.RawBytesMarshaller;
import io.boltgen.runtime.codec.protobuf.ProtoDecoder;
import io.boltgen.runtime.support.MessageText;
import io.netty.buffer.ByteBuf;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;

/**
 * gRPC server reflection, {@code grpc.reflection.v1.ServerReflection} and its older twin
 * {@code grpc.reflection.v1alpha.ServerReflection} (the same messages in another package): services of the server
 * like any other, served through the one server call (executor, interceptors, deadlines, a stream's flow control),
 * so that reflection clients (grpcurl, Postman, grpc-java's own) list, describe and call every method without
 * {@code .proto} files. Each of the caller's requests is answered with one response, in order, as the caller reads
 * them:
 * <ul>
 *   <li>{@code list_services}: the services with descriptors ({@link ReflectionIndex}); the standard ones (health,
 *       reflection) have none here and are not listed;</li>
 *   <li>{@code file_by_filename}, {@code file_containing_symbol}: the file, then every file it imports;</li>
 *   <li>{@code all_extension_numbers_of_type}: none (emitted files declare no extensions);
 *       {@code file_containing_extension}: {@code NOT_FOUND};</li>
 *   <li>an unknown name: an {@code error_response} with {@code NOT_FOUND}, the stream going on.</li>
 * </ul>
 * A stream's deadline is the caller's {@code grpc-timeout}, else {@value #STREAM_TIMEOUT_MINUTES} minutes. A name
 * the caller sent is repeated in an error at most shortened ({@link MessageText#shorten}): the request is echoed
 * whole already.
 *
 * <p>Thread-safe: immutable.
 */
final class GrpcReflection {

  static final String V1 = "grpc.reflection.v1.ServerReflection";
  static final String V1ALPHA = "grpc.reflection.v1alpha.ServerReflection";
  static final long STREAM_TIMEOUT_MINUTES = 10;

  private static final int NOT_FOUND = 5;
  private static final int UNIMPLEMENTED = 12;

  private final ReflectionIndex index;

  private GrpcReflection(ReflectionIndex index) {
    this.index = index;
  }

  /** The two reflection services of a server serving {@code served}. */
  static List<ServiceDefinition> services(List<ServiceDescriptor> served) {
    GrpcReflection reflection = new GrpcReflection(new ReflectionIndex(served));
    return List.of(reflection.service(V1), reflection.service(V1ALPHA));
  }

  private ServiceDefinition service(String name) {
    MethodDescriptor<Request, byte[]> info = MethodDescriptor.newBuilder(new RequestMarshaller(),
            RawBytesMarshaller.withCodecId(Marshaller.PROTOBUF))
        .serviceName(name)
        .methodName("ServerReflectionInfo")
        .type(MethodType.BIDI_STREAMING)
        .timeoutMillis(TimeUnit.MINUTES.toMillis(STREAM_TIMEOUT_MINUTES))
        .protoService(name)
        .build();
    return ServiceDefinition.builder(name, "1.0")
        .streamingMethod(info, (Flow.Publisher<Request> requests, io.boltgen.runtime.ServerCall call) ->
            call.respondStream(Publishers.map(requests, this::answer)))
        .build();
  }

  /**
   * One {@code ServerReflectionRequest}: its bytes (echoed as {@code original_request}), its {@code host}, which
   * of its {@code message_request} fields is set ({@code kind}, 0 for none) and that field's name.
   */
  static final class Request {
    private final byte[] raw;
    private final String host;
    private final int kind;
    private final String argument;

    Request(byte[] raw, String host, int kind, String argument) {
      this.raw = raw;
      this.host = host;
      this.kind = kind;
      this.argument = argument;
    }

    String host() {
      return host;
    }

    int kind() {
      return kind;
    }

    String argument() {
      return argument;
    }
  }

  /** The {@code ServerReflectionResponse} to {@code request}. */
  byte[] answer(Request request) {
    Writer out = new Writer();
    if (!request.host().isEmpty()) {
      out.string(1, request.host());
    }
    out.bytes(2, request.raw);
    switch (request.kind()) {
      case 3 -> files(out, index.withDependencies(request.argument()),
          "file " + MessageText.shorten(request.argument()));
      case 4 -> {
        String file = index.fileContaining(request.argument());
        files(out, file == null ? List.of() : index.withDependencies(file),
            "symbol " + MessageText.shorten(request.argument()));
      }
      case 5 -> error(out, NOT_FOUND, "no extension of " + MessageText.shorten(request.argument())
          + ": no file here declares one");
      case 6 -> {
        if (index.isMessage(request.argument())) {
          Writer numbers = new Writer();
          numbers.string(1, request.argument());
          out.bytes(5, numbers.toByteArray());
        } else {
          error(out, NOT_FOUND, "type not found: " + MessageText.shorten(request.argument()));
        }
      }
      case 7 -> {
        Writer list = new Writer();
        for (String service : index.services()) {
          Writer entry = new Writer();
          entry.string(1, service);
          list.bytes(1, entry.toByteArray());
        }
        out.bytes(6, list.toByteArray());
      }
      default -> error(out, UNIMPLEMENTED, "the request asks for nothing this server knows (no message_request"
          + " field it reads is set)");
    }
    return out.toByteArray();
  }

  private static void files(Writer out, List<byte[]> files, String what) {
    if (files.isEmpty()) {
      error(out, NOT_FOUND, what + " not found");
      return;
    }
    Writer response = new Writer();
    for (byte[] file : files) {
      response.bytes(1, file);
    }
    out.bytes(4, response.toByteArray());
  }

  private static void error(Writer out, int code, String message) {
    Writer error = new Writer();
    error.varint(1, code);
    error.string(2, message);
    out.bytes(7, error.toByteArray());
  }

  /** Reads a {@code ServerReflectionRequest}, its bytes kept. */
  private static final class RequestMarshaller implements Marshaller<Request> {

    @Override
    public int encodedSize(Request value) {
      return value.raw.length;
    }

    @Override
    public void write(Request value, ByteBuf out) {
      out.writeBytes(value.raw);
    }

    @Override
    public Request read(ByteBuf in) {
      byte[] raw = new byte[in.readableBytes()];
      in.getBytes(in.readerIndex(), raw);
      ProtoDecoder decoder = ProtoDecoder.of(in);
      String host = "";
      int kind = 0;
      String argument = "";
      for (int tag = decoder.readTag(); tag != 0; tag = decoder.readTag()) {
        int field = tag >>> 3;
        if (field == 1 && (tag & 7) == 2) {
          host = decoder.readString();
        } else if (field >= 3 && field <= 7 && field != 5 && (tag & 7) == 2) {
          kind = field;
          argument = decoder.readString();
        } else if (field == 5 && (tag & 7) == 2) { // ExtensionRequest: containing_type, extension_number
          kind = field;
          argument = decoder.readMessage(ReflectionIndex::name);
        } else {
          decoder.skipField(tag);
        }
      }
      return new Request(raw, host, kind, argument);
    }
  }

  /** Protobuf's binary form, as much of it as these responses use. */
  private static final class Writer {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

    void varint(int field, int value) {
      raw(field << 3);
      raw(value);
    }

    void string(int field, String value) {
      bytes(field, value.getBytes(StandardCharsets.UTF_8));
    }

    void bytes(int field, byte[] value) {
      raw(field << 3 | 2);
      raw(value.length);
      bytes.write(value, 0, value.length);
    }

    private void raw(int value) {
      int v = value;
      while ((v & ~0x7F) != 0) {
        bytes.write((v & 0x7F) | 0x80);
        v >>>= 7;
      }
      bytes.write(v);
    }

    byte[] toByteArray() {
      return bytes.toByteArray();
    }
  }
}
