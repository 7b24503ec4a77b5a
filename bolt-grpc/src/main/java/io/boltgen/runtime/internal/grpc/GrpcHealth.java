package io.boltgen.runtime.internal.grpc;

import io.boltgen.runtime.call.ServerCalls;
import io.boltgen.runtime.call.StatusCode;
import io.boltgen.runtime.codec.protobuf.ProtoDecodeException;
import io.boltgen.runtime.codec.protobuf.ProtoDecoder;
import io.boltgen.runtime.internal.http.LengthPrefixedMessages;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * gRPC's health checking protocol ({@code grpc.health.v1.Health}), answered by the module for every server with
 * gRPC (unless a service of its own has those routes). {@code Check} answers {@code SERVING} for the server
 * ({@code ""}) and for each service it serves by its proto name, {@code NOT_SERVING} for all of them once the server
 * began to close (while it drains), and {@code NOT_FOUND} for a service it does not serve. {@code Watch} streams the
 * same status ({@code SERVICE_UNKNOWN} for a service it does not serve), then {@code NOT_SERVING} once the server
 * begins to close: its watchers are told ({@link Watcher}). Answered on the IO thread, as {@code /openapi.json} is:
 * a probe (Kubernetes', a load balancer's) is not a call of the server's methods, and passes no interceptor.
 *
 * <p>Thread-safe.
 */
final class GrpcHealth {

  /** The route of the check. */
  static final String CHECK = "/grpc.health.v1.Health/Check";

  /** The route of the watch, a server stream. */
  static final String WATCH = "/grpc.health.v1.Health/Watch";

  /** {@code HealthCheckResponse.ServingStatus}. */
  private static final int SERVING = 1;
  static final int NOT_SERVING = 2;
  private static final int SERVICE_UNKNOWN = 3;

  /** {@code HealthCheckRequest.service}: field 1, length-delimited. */
  private static final int SERVICE_TAG = (1 << 3) | 2;

  /** The longest service name read, in bytes: no proto name comes near it. */
  private static final int MAX_NAME_BYTES = 1024;

  private final ServerCalls calls;
  private final Set<String> services;
  // the watches of a serving status, told once when the server begins to close (at most 100 per connection)
  private final Set<Watcher> watchers = ConcurrentHashMap.newKeySet();

  /** A watch of a serving status: told once that the server is not serving any more (the closing thread). */
  interface Watcher {
    void notServing();
  }

  GrpcHealth(ServerCalls calls) {
    this.calls = calls;
    calls.onClosing(this::closing);
    Set<String> names = new HashSet<>();
    names.add("");
    for (ServerCalls.Method method : calls.methods()) {
      if (method.descriptor().protoService() != null) {
        names.add(method.descriptor().protoService());
      }
    }
    this.services = Set.copyOf(names);
  }

  /** The answer to a check: its message, or the status it fails with. */
  record Answer(ByteBuf message, StatusCode failure, String why) {}

  /**
   * Answers the {@code HealthCheckRequest} in {@code request} (released here), its message prefixed for gRPC: the
   * check's answer, or with {@code watch} non-null the watch's first message, {@code watch} then told when the
   * status changes.
   */
  Answer check(ByteBuf request, ByteBufAllocator alloc, Watcher watch) {
    String service;
    try {
      service = serviceName(request);
    } catch (IllegalArgumentException e) {
      return new Answer(null, StatusCode.INVALID_ARGUMENT, "a HealthCheckRequest that does not decode: "
          + e.getMessage());
    } finally {
      request.release();
    }
    if (!services.contains(service)) {
      return watch != null ? new Answer(status(alloc, SERVICE_UNKNOWN), null, null)
          : new Answer(null, StatusCode.NOT_FOUND, "unknown service " + service);
    }
    if (calls.isClosing()) {
      return new Answer(status(alloc, NOT_SERVING), null, null);
    }
    if (watch != null) {
      watchers.add(watch);
      if (calls.isClosing() && watchers.remove(watch)) {
        return new Answer(status(alloc, NOT_SERVING), null, null); // it began to close meanwhile
      }
    }
    return new Answer(status(alloc, SERVING), null, null);
  }

  /** A {@code HealthCheckResponse} with {@code status}, prefixed for gRPC. */
  static ByteBuf status(ByteBufAllocator alloc, int status) {
    ByteBuf message = alloc.buffer(LengthPrefixedMessages.PREFIX_BYTES + 2);
    return message.writeByte(0).writeInt(2).writeByte(0x08).writeByte(status);
  }

  /** The watch ended (its caller went away, its deadline passed): it is told nothing more. */
  void unwatch(Watcher watch) {
    watchers.remove(watch);
  }

  /** The server began to close: every watcher is told, once. */
  private void closing() {
    for (Watcher watch : watchers.toArray(new Watcher[0])) {
      if (watchers.remove(watch)) {
        watch.notServing();
      }
    }
  }

  /** Field 1 of the request (a string; the last one wins, as protobuf reads), others skipped. */
  private static String serviceName(ByteBuf in) {
    ProtoDecoder decoder = ProtoDecoder.of(in);
    String name = "";
    try {
      for (int tag = decoder.readTag(); tag != 0; tag = decoder.readTag()) {
        if (tag == SERVICE_TAG) {
          name = decoder.readString();
        } else {
          decoder.skipField(tag);
        }
      }
    } catch (ProtoDecodeException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    int bytes = name.getBytes(StandardCharsets.UTF_8).length;
    if (bytes > MAX_NAME_BYTES) {
      throw new IllegalArgumentException("a service name of " + bytes + " bytes");
    }
    return name;
  }
}
