package io.boltgen.runtime.internal.http;

import io.boltgen.json.StrictJson;
import io.boltgen.runtime.ServiceDescriptor;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.json.JsonFactory;

/**
 * What an HTTP server answers to {@code GET} besides calls: {@code /openapi.json}, one OpenAPI 3.1 document
 * merging the documents the processor generated for each served service (their paths, and their schemas
 * under {@code components}), and, when the console is on, the console's static files ({@code /},
 * {@code /console.js}, {@code /console.css}) from the runtime's jar. Each is read once, on first request,
 * and kept (a few tens of kilobytes per service).
 *
 * <p>Thread-safe: the cached bodies are published through volatile fields; two first requests at once may
 * both build one, with the same result.
 */
final class HttpResources {

  /** The console's files: path → resource name and content type. */
  private static final Map<String, String[]> CONSOLE = Map.of(
      "/", new String[] {"console/index.html", "text/html; charset=utf-8"},
      "/console.js", new String[] {"console/console.js", "text/javascript; charset=utf-8"},
      "/console.css", new String[] {"console/console.css", "text/css; charset=utf-8"});

  private final List<ServiceDescriptor> services;
  private final boolean console;
  private final Map<String, byte[]> cache = new java.util.concurrent.ConcurrentHashMap<>();

  HttpResources(List<ServiceDescriptor> services, boolean console) {
    this.services = List.copyOf(services);
    this.console = console;
  }

  /** Whether {@code path} is one of these resources. */
  boolean serves(String path) {
    return path.equals("/openapi.json") || (console && CONSOLE.containsKey(path));
  }

  /** The resource at {@code path} ({@link #serves} must be true). */
  FullHttpResponse get(String path, ByteBufAllocator alloc) {
    byte[] body;
    String type;
    if (path.equals("/openapi.json")) {
      body = cache.computeIfAbsent(path, p -> openApi());
      type = "application/json";
    } else {
      String[] file = CONSOLE.get(path);
      body = cache.computeIfAbsent(path, p -> resource(file[0]));
      type = file[1];
    }
    FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
        alloc.buffer(body.length).writeBytes(body));
    response.headers().set(HttpHeaderNames.CONTENT_TYPE, type);
    response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
    response.headers().set(HttpHeaderNames.CACHE_CONTROL, "no-cache");
    response.headers().set("X-Content-Type-Options", "nosniff");
    return response;
  }

  private static byte[] resource(String name) {
    try (InputStream in = HttpResources.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("the runtime's jar lacks " + name);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** One document: every service's paths and schemas, in the order the services were added. */
  private byte[] openApi() {
    JsonFactory factory = StrictJson.factory(200);
    Map<String, byte[]> paths = new LinkedHashMap<>();
    Map<String, byte[]> schemas = new LinkedHashMap<>();
    List<String> names = new ArrayList<>();
    for (ServiceDescriptor service : services) {
      names.add(service.name() + ":" + service.version());
      URL document = service.openApiDocument();
      if (document == null) {
        continue;
      }
      try (InputStream in = document.openStream();
          JsonParser parser = factory.createParser(ObjectReadContext.empty(), in)) {
        collect(parser, paths, schemas);
      } catch (IOException | JacksonException e) {
        throw new IllegalStateException("cannot read the OpenAPI document " + document + ": " + e.getMessage(), e);
      }
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(4096);
    try (JsonGenerator json = factory.createGenerator(ObjectWriteContext.empty(), out)) {
      json.writeStartObject();
      json.writeStringProperty("openapi", "3.1.0");
      json.writeName("info");
      json.writeStartObject();
      json.writeStringProperty("title", "boltgen server");
      json.writeStringProperty("description", "Connect unary calls on the Bolt port of " + String.join(", ", names)
          + ": POST /<proto package>.<Service>/<method> with application/json or application/proto bodies; a"
          + " streaming method (x-boltgen-streaming) by Connect's streaming protocol (a server stream) or gRPC.");
      json.writeStringProperty("version", "1");
      json.writeEndObject();
      json.writeName("paths");
      writeAll(json, paths);
      json.writeName("components");
      json.writeStartObject();
      json.writeName("schemas");
      writeAll(json, schemas);
      json.writeEndObject();
      json.writeEndObject();
    }
    return out.toByteArray();
  }

  private static void writeAll(JsonGenerator json, Map<String, byte[]> values) {
    json.writeStartObject();
    for (Map.Entry<String, byte[]> e : values.entrySet()) {
      json.writeName(e.getKey());
      json.writeRawValue(new String(e.getValue(), java.nio.charset.StandardCharsets.UTF_8));
    }
    json.writeEndObject();
  }

  /** Adds the document's {@code paths} and {@code components.schemas} entries (the first of a name wins). */
  private static void collect(JsonParser parser, Map<String, byte[]> paths, Map<String, byte[]> schemas) {
    if (parser.nextToken() != JsonToken.START_OBJECT) {
      throw new IllegalStateException("not a JSON object");
    }
    for (String name = parser.nextName(); name != null; name = parser.nextName()) {
      parser.nextToken();
      if (name.equals("paths")) {
        members(parser, paths);
      } else if (name.equals("components") && parser.currentToken() == JsonToken.START_OBJECT) {
        for (String part = parser.nextName(); part != null; part = parser.nextName()) {
          parser.nextToken();
          if (part.equals("schemas")) {
            members(parser, schemas);
          } else {
            parser.skipChildren();
          }
        }
      } else {
        parser.skipChildren();
      }
    }
  }

  private static void members(JsonParser parser, Map<String, byte[]> into) {
    if (parser.currentToken() != JsonToken.START_OBJECT) {
      parser.skipChildren();
      return;
    }
    for (String name = parser.nextName(); name != null; name = parser.nextName()) {
      parser.nextToken();
      ByteArrayOutputStream value = new ByteArrayOutputStream(256);
      try (JsonGenerator copy = JsonFactory.builder().build().createGenerator(ObjectWriteContext.empty(), value)) {
        copy.copyCurrentStructure(parser);
      }
      into.putIfAbsent(name, value.toByteArray());
    }
  }
}
