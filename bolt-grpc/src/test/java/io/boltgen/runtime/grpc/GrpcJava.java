package io.boltgen.runtime.grpc;

import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** The stock grpc-java client of the tests: a plaintext channel, and methods whose messages are raw bytes. */
final class GrpcJava {

  private GrpcJava() {}

  /** The raw bytes of a message, as they are. */
  static final MethodDescriptor.Marshaller<byte[]> BYTES = new MethodDescriptor.Marshaller<>() {
    @Override
    public InputStream stream(byte[] value) {
      return new ByteArrayInputStream(value);
    }

    @Override
    public byte[] parse(InputStream stream) {
      try {
        return stream.readAllBytes();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  };

  /** The unary method {@code service/name} with raw-bytes messages. */
  static MethodDescriptor<byte[], byte[]> unary(String service, String name) {
    return MethodDescriptor.<byte[], byte[]>newBuilder()
        .setType(MethodDescriptor.MethodType.UNARY)
        .setFullMethodName(MethodDescriptor.generateFullMethodName(service, name))
        .setRequestMarshaller(BYTES)
        .setResponseMarshaller(BYTES)
        .build();
  }

  /** The server-streaming method {@code service/name} with raw-bytes messages. */
  static MethodDescriptor<byte[], byte[]> serverStreaming(String service, String name) {
    return MethodDescriptor.<byte[], byte[]>newBuilder()
        .setType(MethodDescriptor.MethodType.SERVER_STREAMING)
        .setFullMethodName(MethodDescriptor.generateFullMethodName(service, name))
        .setRequestMarshaller(BYTES)
        .setResponseMarshaller(BYTES)
        .build();
  }

  /** The method {@code service/name} of {@code type} with raw-bytes messages. */
  static MethodDescriptor<byte[], byte[]> method(String service, String name, MethodDescriptor.MethodType type) {
    return MethodDescriptor.<byte[], byte[]>newBuilder()
        .setType(type)
        .setFullMethodName(MethodDescriptor.generateFullMethodName(service, name))
        .setRequestMarshaller(BYTES)
        .setResponseMarshaller(BYTES)
        .build();
  }

  /** A plaintext HTTP/2 channel (prior knowledge) to {@code port} on loopback. */
  static ManagedChannel plaintext(int port) {
    return NettyChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build();
  }
}
