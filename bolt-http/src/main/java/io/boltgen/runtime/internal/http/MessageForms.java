package io.boltgen.runtime.internal.http;

import io.boltgen.json.JsonForms;
import io.boltgen.json.JsonMarshaller;
import io.boltgen.json.ProtoJson;
import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.codec.Marshaller;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.ByteBufOutputStream;
import java.io.IOException;

/**
 * A method's messages in the two forms the protocols on HTTP carry them in: protobuf's binary form (the bytes a
 * Bolt frame's content holds) and proto3 JSON (the method's {@link JsonForms}). Connect and the HTTP/2 stream
 * protocols (gRPC) read and write their messages here, so that a message decodes and fails alike on each. Not API.
 *
 * <p>Thread-safe: stateless.
 */
public final class MessageForms {

  private MessageForms() {}

  /** Whether {@code method} has a JSON form (a hand-built one, or one compiled without bolt-json, has none). */
  public static boolean hasJson(MethodDescriptor<?, ?> method) {
    return JsonForms.request(method) != null;
  }

  /**
   * Decodes a request message of {@code method} and releases {@code bytes}.
   *
   * @throws BoltException {@code SERVER_DESERIAL_EXCEPTION}, naming the method and what is wrong
   */
  public static Object decodeRequest(MethodDescriptor<?, ?> method, boolean json, ByteBuf bytes) {
    try {
      if (json) {
        try (ByteBufInputStream in = new ByteBufInputStream(bytes)) {
          return ProtoJson.read(JsonForms.request(method), in, false);
        } catch (IOException e) {
          throw new IllegalStateException(e); // reading a buffer does not fail
        }
      }
      return method.requestMarshaller().read(bytes);
    } catch (RuntimeException | StackOverflowError e) {
      throw new BoltException(ResponseStatus.SERVER_DESERIAL_EXCEPTION,
          "could not decode the request of " + method.httpPath() + ": " + e.getMessage(), e);
    } finally {
      bytes.release();
    }
  }

  /**
   * Encodes a response message of {@code method} into a new buffer, after {@code headroom} zero bytes (a
   * protocol's own prefix, which it fills in); a failure to encode is thrown, nothing held.
   */
  @SuppressWarnings("unchecked") // the invoker answers with its method's response type
  public static ByteBuf encodeResponse(MethodDescriptor<?, ?> method, boolean json, Object result,
      ByteBufAllocator alloc, int headroom) {
    ByteBuf out;
    if (json) {
      out = alloc.buffer(headroom + 256);
      out.writeZero(headroom);
      try (ByteBufOutputStream stream = new ByteBufOutputStream(out)) {
        ProtoJson.write((JsonMarshaller<Object>) JsonForms.response(method), result, stream);
      } catch (IOException e) {
        out.release();
        throw new IllegalStateException(e); // writing to a buffer does not fail
      } catch (RuntimeException | Error e) {
        out.release();
        throw e;
      }
      return out;
    }
    Marshaller<Object> marshaller = (Marshaller<Object>) method.responseMarshaller();
    int size = marshaller.encodedSize(result);
    out = alloc.buffer(headroom + size);
    out.writeZero(headroom);
    try {
      marshaller.write(result, out);
    } catch (RuntimeException | Error e) {
      out.release();
      throw e;
    }
    return out;
  }
}
