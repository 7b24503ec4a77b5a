package io.boltgen.gateway;

import io.boltgen.json.JsonForms;
import io.boltgen.json.JsonMarshaller;
import io.boltgen.json.JsonReader;
import io.boltgen.json.JsonWriter;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.ServiceDescriptor;
import io.boltgen.runtime.codec.Marshaller;
import io.boltgen.runtime.codec.RawBytesMarshaller;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a service's methods become the gateway's: for every method, a descriptor with the same wire name,
 * route, timeout, idempotency and error mapping whose request and response are the protobuf bytes the
 * generated codecs would write ({@link RawBytesMarshaller} with the method's codec id). A protobuf body is
 * therefore forwarded as it came, never decoded; a JSON body is read through the method's generated JSON
 * codec into its request type and written as protobuf bytes (and the answer the other way).
 *
 * <p>Immutable and thread-safe.
 */
final class ForwardedMethods {

  private ForwardedMethods() {}

  /** {@code service} with every method forwarded as bytes. */
  static ServiceDescriptor of(ServiceDescriptor service) {
    List<MethodDescriptor<?, ?>> methods = new ArrayList<>();
    for (MethodDescriptor<?, ?> method : service.methods()) {
      methods.add(forwarded(method));
    }
    return service.withMethods(methods);
  }

  private static <Q, R> MethodDescriptor<byte[], byte[]> forwarded(MethodDescriptor<Q, R> method) {
    MethodDescriptor.Builder<byte[], byte[]> builder = MethodDescriptor.newBuilder(
            RawBytesMarshaller.withCodecId(method.requestMarshaller().codecId()),
            RawBytesMarshaller.withCodecId(method.responseMarshaller().codecId()))
        .serviceName(method.serviceName())
        .serviceVersion(method.serviceVersion())
        .methodName(method.methodName())
        .wireName(method.wireName())
        .responseClassName(method.responseClassName())
        .methodCode(method.methodCode())
        .type(method.type())
        .timeoutMillis(method.timeoutMillis())
        .errorMapper(method.errorMapper())
        .idempotent(method.idempotent());
    for (String alias : method.aliases()) {
      builder.alias(alias);
    }
    if (method.protoService() != null) {
      builder.protoService(method.protoService());
    }
    JsonForms<Q, R> json = JsonForms.of(method);
    if (json != null) {
      builder.extension(JsonForms.class, JsonForms.of(new Transcoder<>(json.request(), method.requestMarshaller()),
          new Transcoder<>(json.response(), method.responseMarshaller())));
    }
    return builder.build();
  }

  /**
   * The JSON form of one message carried as its protobuf bytes: reading parses the JSON with the generated
   * codec and encodes the value; writing decodes the bytes and writes the value as JSON.
   */
  static final class Transcoder<T> implements JsonMarshaller<byte[]> {
    private final JsonMarshaller<T> json;
    private final Marshaller<T> proto;

    Transcoder(JsonMarshaller<T> json, Marshaller<T> proto) {
      this.json = json;
      this.proto = proto;
    }

    @Override
    public void write(byte[] value, JsonWriter out) {
      json.write(value == null ? null : proto.read(Unpooled.wrappedBuffer(value)), out);
    }

    @Override
    public byte[] read(JsonReader in) {
      T value = json.read(in);
      byte[] bytes = new byte[proto.encodedSize(value)];
      ByteBuf out = Unpooled.wrappedBuffer(bytes).writerIndex(0);
      proto.write(value, out);
      if (out.writerIndex() != bytes.length) {
        throw new IllegalStateException(proto + " wrote " + out.writerIndex() + " bytes, not the "
            + bytes.length + " its encodedSize gave");
      }
      return bytes;
    }
  }
}
