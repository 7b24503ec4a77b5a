package io.boltgen.runtime;

import io.boltgen.runtime.codec.json.JsonMarshaller;
import io.boltgen.runtime.codec.json.ProtoJsonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;

import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.MethodType;
import io.boltgen.runtime.ServiceDefinition;
import io.boltgen.runtime.codec.Marshaller;
import io.boltgen.runtime.codec.RawBytesMarshaller;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A hand-built test service on raw bytes: echo, a failing method, a slow method, a oneway sink, and
 * amplify, whose answer is as many bytes as its 4-byte request says.
 */
public final class EchoService {

  public static final Marshaller<byte[]> RAW = RawBytesMarshaller.withCodecId(Marshaller.PROTOBUF);

  /** The JSON form of the raw bytes: {@code {"text": "<the bytes as UTF-8>"}}; an empty message is {@code {}}. */
  public static final JsonMarshaller<byte[]> TEXT_JSON = new JsonMarshaller<>() {
    @Override
    public void write(byte[] value, JsonGenerator out) {
      out.writeStartObject();
      if (value != null && value.length > 0) {
        out.writeStringProperty("text", string(value));
      }
      out.writeEndObject();
    }

    @Override
    public byte[] read(JsonParser in, boolean ignoreUnknownFields) {
      if (in.currentToken() != JsonToken.START_OBJECT) {
        throw new ProtoJsonException("expected an object");
      }
      byte[] text = new byte[0];
      for (String name = in.nextName(); name != null; name = in.nextName()) {
        JsonToken value = in.nextToken();
        if (!name.equals("text")) {
          if (!ignoreUnknownFields) {
            throw new ProtoJsonException("unknown field \"" + name + "\" in test.Echo's message");
          }
          in.skipChildren();
        } else if (value == JsonToken.VALUE_STRING) {
          text = bytes(in.getString());
        } else if (value != JsonToken.VALUE_NULL) {
          throw new ProtoJsonException("field \"text\": expected a string");
        }
      }
      return text;
    }
  };
  public static final MethodDescriptor<byte[], byte[]> ECHO = method("echo", 1, MethodType.REQUEST_RESPONSE);
  public static final MethodDescriptor<byte[], byte[]> FAIL = method("fail", 2, MethodType.REQUEST_RESPONSE);
  public static final MethodDescriptor<byte[], byte[]> SLOW = method("slow", 3, MethodType.REQUEST_RESPONSE);
  public static final MethodDescriptor<byte[], byte[]> SINK = method("sink", 4, MethodType.ONEWAY);
  public static final MethodDescriptor<byte[], byte[]> AMPLIFY = method("amplify", 5, MethodType.REQUEST_RESPONSE);

  public final LinkedBlockingQueue<String> sunk = new LinkedBlockingQueue<>();
  public final AtomicInteger echoed = new AtomicInteger();
  public final AtomicInteger slowStarted = new AtomicInteger();
  /** SLOW waits for this latch (or 10 s) before echoing. */
  public volatile CountDownLatch release = new CountDownLatch(0);

  public static MethodDescriptor<byte[], byte[]> method(String name, int code, MethodType type) {
    return method("test.Echo", name, code, type, 5_000);
  }

  /** A raw-bytes method of {@code service} version 1.0, over Bolt and HTTP (route /service/name). */
  public static MethodDescriptor<byte[], byte[]> method(String service, String name, int code, MethodType type,
      int timeoutMillis) {
    return MethodDescriptor.newBuilder(RAW, RAW)
        .serviceName(service)
        .serviceVersion("1.0")
        .methodName(name)
        .methodCode(code)
        .type(type)
        .timeoutMillis(timeoutMillis)
        .protoService(service)
        .json(TEXT_JSON, TEXT_JSON)
        .build();
  }



  public ServiceDefinition definition() {
    return ServiceDefinition.builder("test.Echo", "1.0")
        .method(ECHO, (request, call) -> {
          echoed.incrementAndGet();
          call.respond(request);
        })
        .method(FAIL, (request, call) -> {
          throw new IllegalStateException("boom: " + new String(request, StandardCharsets.UTF_8));
        })
        .method(SLOW, (request, call) -> {
          slowStarted.incrementAndGet();
          release.await(10, TimeUnit.SECONDS);
          call.respond(request);
        })
        .method(SINK, (request, call) -> sunk.add(new String(request, StandardCharsets.UTF_8)))
        .method(AMPLIFY, (request, call) -> call.respond(new byte[java.nio.ByteBuffer.wrap(request).getInt()]))
        .build();
  }

  public static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  public static String string(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }
}
