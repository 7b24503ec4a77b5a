package io.boltgen.runtime.internal.grpc;

import io.boltgen.runtime.ServiceDescriptor;
import io.boltgen.runtime.codec.protobuf.ProtoDecodeException;
import io.boltgen.runtime.codec.protobuf.ProtoDecoder;
import io.boltgen.runtime.support.MessageText;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What gRPC server reflection answers from: the binary descriptors ({@code FileDescriptorProto}s) of the served
 * services' {@code .proto} files and of the files they import, read once when the server is built from each
 * service's {@link ServiceDescriptor#protoDescriptors()} (the {@code .protoset} the processor emitted), and the
 * symbols each file declares: its services, their methods, its messages and enums, nested ones included, by full
 * name. A service without descriptors (built by hand, or by a processor older than them) is left out, with one
 * line in the log. Held for the server's life: a few kilobytes per service.
 *
 * <p>Thread-safe: immutable after construction.
 */
final class ReflectionIndex {

  private static final Logger log = LoggerFactory.getLogger(ReflectionIndex.class);

  /** The largest descriptor set read for one service; an emitted one is a few kilobytes. */
  static final int MAX_SET_BYTES = 16 << 20;

  private final Map<String, byte[]> files = new LinkedHashMap<>();
  private final Map<String, List<String>> dependencies = new LinkedHashMap<>();
  private final Map<String, String> fileBySymbol = new LinkedHashMap<>();
  private final Set<String> messages = new LinkedHashSet<>();
  private final List<String> services = new ArrayList<>();

  ReflectionIndex(List<ServiceDescriptor> served) {
    for (ServiceDescriptor service : served) {
      URL set = service.protoDescriptors();
      if (set == null) {
        log.info("gRPC server reflection does not describe {}: it has no .proto descriptors (a hand-built service,"
            + " one compiled by an older boltgen processor, or a jar that lost its META-INF/boltgen resources)",
            service.name());
        continue;
      }
      try {
        read(set);
      } catch (IOException | RuntimeException | StackOverflowError e) {
        log.warn("gRPC server reflection does not describe {}: its descriptors at {} could not be read: {}",
            service.name(), set, MessageText.shorten(e.toString()));
      }
    }
  }

  /** The full names of the services described, in the order they were served. */
  List<String> services() {
    return Collections.unmodifiableList(services);
  }

  /** The file that declares {@code symbol} (a service, method, message or enum, by full name), or {@code null}. */
  String fileContaining(String symbol) {
    return fileBySymbol.get(symbol.startsWith(".") ? symbol.substring(1) : symbol);
  }

  /** Whether {@code name} (a leading dot allowed) is the full name of a message described. */
  boolean isMessage(String name) {
    return messages.contains(name.startsWith(".") ? name.substring(1) : name);
  }

  /**
   * The descriptor of {@code file} followed by those of every file it imports, directly or not, each once; empty
   * when no file has that name.
   */
  List<byte[]> withDependencies(String file) {
    if (!files.containsKey(file)) {
      return List.of();
    }
    List<byte[]> out = new ArrayList<>();
    Set<String> seen = new LinkedHashSet<>();
    Deque<String> next = new ArrayDeque<>();
    next.add(file);
    seen.add(file);
    while (!next.isEmpty()) {
      String name = next.poll();
      byte[] descriptor = files.get(name);
      if (descriptor == null) {
        continue; // imported but not described: a client asks again, and hears it is not found
      }
      out.add(descriptor);
      for (String dependency : dependencies.getOrDefault(name, List.of())) {
        if (seen.add(dependency)) {
          next.add(dependency);
        }
      }
    }
    return out;
  }

  private void read(URL url) throws IOException {
    byte[] set;
    try (InputStream in = url.openStream()) {
      set = in.readNBytes(MAX_SET_BYTES + 1);
    }
    if (set.length > MAX_SET_BYTES) {
      throw new IOException("more than " + MAX_SET_BYTES + " bytes");
    }
    ProtoDecoder decoder = ProtoDecoder.of(Unpooled.wrappedBuffer(set));
    List<Parsed> parsed = new ArrayList<>();
    for (int tag = decoder.readTag(); tag != 0; tag = decoder.readTag()) {
      if (tag == (1 << 3 | 2)) { // FileDescriptorSet.file
        parsed.add(parse(decoder.readBytes()));
      } else {
        decoder.skipField(tag);
      }
    }
    // the whole set decoded: only now is it indexed, so that a set that does not decode leaves nothing behind
    for (int i = 0; i < parsed.size(); i++) {
      Parsed file = parsed.get(i);
      if (files.putIfAbsent(file.name, file.bytes) != null) {
        continue; // an imported file two services share (a well-known type's): described once
      }
      dependencies.put(file.name, file.imports);
      file.symbols.forEach(symbol -> symbol(symbol, file.name));
      messages.addAll(file.messages);
      if (i == parsed.size() - 1) { // the set's last file is the service's own: its services are listed
        file.services.stream().filter(service -> !services.contains(service)).forEach(services::add);
      }
    }
  }

  /** One {@code FileDescriptorProto}, decoded: its name, bytes, imports, and the full names it declares. */
  private static final class Parsed {
    String name;
    byte[] bytes;
    List<String> imports = new ArrayList<>();
    final List<String> symbols = new ArrayList<>();
    final List<String> messages = new ArrayList<>();
    final List<String> services = new ArrayList<>();
  }

  private static Parsed parse(byte[] file) {
    Parsed out = new Parsed();
    out.bytes = file;
    ProtoDecoder decoder = ProtoDecoder.of(Unpooled.wrappedBuffer(file));
    String pkg = "";
    List<byte[]> messageTypes = new ArrayList<>();
    List<byte[]> enumTypes = new ArrayList<>();
    List<byte[]> serviceTypes = new ArrayList<>();
    for (int tag = decoder.readTag(); tag != 0; tag = decoder.readTag()) {
      switch (lengthDelimited(tag, 6)) {
        case 1 -> out.name = decoder.readString();
        case 2 -> pkg = decoder.readString();
        case 3 -> out.imports.add(decoder.readString());
        case 4 -> messageTypes.add(decoder.readBytes());
        case 5 -> enumTypes.add(decoder.readBytes());
        case 6 -> serviceTypes.add(decoder.readBytes());
        default -> decoder.skipField(tag);
      }
    }
    if (out.name == null) {
      throw new ProtoDecodeException("a file descriptor without a name");
    }
    out.imports = List.copyOf(out.imports);
    String prefix = pkg.isEmpty() ? "" : pkg + ".";
    for (byte[] message : messageTypes) {
      parseMessage(message, prefix, out, 1);
    }
    for (byte[] e : enumTypes) {
      out.symbols.add(prefix + nameOf(e));
    }
    for (byte[] service : serviceTypes) {
      ProtoDecoder d = ProtoDecoder.of(Unpooled.wrappedBuffer(service));
      String serviceName = "";
      List<String> methods = new ArrayList<>();
      for (int tag = d.readTag(); tag != 0; tag = d.readTag()) {
        switch (lengthDelimited(tag, 2)) {
          case 1 -> serviceName = d.readString();
          case 2 -> methods.add(nameOf(d.readBytes()));
          default -> d.skipField(tag);
        }
      }
      String full = prefix + serviceName;
      out.symbols.add(full);
      methods.forEach(method -> out.symbols.add(full + "." + method));
      out.services.add(full);
    }
    return out;
  }

  private static void parseMessage(byte[] message, String prefix, Parsed out, int depth) {
    if (depth > ProtoDecoder.RECURSION_LIMIT) {
      throw new ProtoDecodeException("messages nested deeper than " + ProtoDecoder.RECURSION_LIMIT + " levels");
    }
    ProtoDecoder decoder = ProtoDecoder.of(Unpooled.wrappedBuffer(message));
    String name = "";
    List<byte[]> nested = new ArrayList<>();
    List<String> enums = new ArrayList<>();
    for (int tag = decoder.readTag(); tag != 0; tag = decoder.readTag()) {
      switch (lengthDelimited(tag, 4)) {
        case 1 -> name = decoder.readString();
        case 3 -> nested.add(decoder.readBytes());
        case 4 -> enums.add(nameOf(decoder.readBytes()));
        default -> decoder.skipField(tag);
      }
    }
    String full = prefix + name;
    out.symbols.add(full);
    out.messages.add(full);
    for (byte[] inner : nested) {
      parseMessage(inner, full + ".", out, depth + 1);
    }
    enums.forEach(e -> out.symbols.add(full + "." + e));
  }

  /**
   * The field number of {@code tag}, checked to be length-delimited when it is one of the first {@code known}
   * (strings and messages, in the descriptors read here); 0 (skipped) for another field.
   */
  private static int lengthDelimited(int tag, int known) {
    int field = tag >>> 3;
    if (field < 1 || field > known) {
      return 0;
    }
    if ((tag & 7) != 2) {
      throw new ProtoDecodeException("field " + field + " has wire type " + (tag & 7) + ", not length-delimited");
    }
    return field;
  }

  private void symbol(String symbol, String file) {
    String first = fileBySymbol.putIfAbsent(symbol, file);
    if (first != null && !first.equals(file)) {
      log.warn("gRPC server reflection: {} is declared in {} and in {}; it is described by the first",
          symbol, first, file);
    }
  }

  /** Field 1 (the name) of a descriptor message. */
  private static String nameOf(byte[] descriptor) {
    return name(ProtoDecoder.of(Unpooled.wrappedBuffer(descriptor)));
  }

  /**
   * Field 1 of the message {@code decoder} reads, a string (a descriptor's name, an {@code ExtensionRequest}'s
   * containing type), the last one if repeated; {@code ""} without one.
   */
  static String name(ProtoDecoder decoder) {
    String name = "";
    for (int tag = decoder.readTag(); tag != 0; tag = decoder.readTag()) {
      if (tag == (1 << 3 | 2)) {
        name = decoder.readString();
      } else {
        decoder.skipField(tag);
      }
    }
    return name;
  }
}
