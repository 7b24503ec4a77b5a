package io.boltgen.runtime.interop;

import com.alipay.remoting.CommonCommandCode;
import com.alipay.remoting.Connection;
import com.alipay.remoting.CustomSerializerManager;
import com.alipay.remoting.DefaultCustomSerializer;
import com.alipay.remoting.InvokeCallback;
import com.alipay.remoting.InvokeContext;
import com.alipay.remoting.ProtocolCode;
import com.alipay.remoting.ProtocolManager;
import com.alipay.remoting.RemotingCommand;
import com.alipay.remoting.RemotingContext;
import com.alipay.remoting.config.switches.ProtocolSwitch;
import com.alipay.remoting.rpc.HeartbeatAckCommand;
import com.alipay.remoting.rpc.HeartbeatCommand;
import com.alipay.remoting.rpc.RequestCommand;
import com.alipay.remoting.rpc.ResponseCommand;
import com.alipay.remoting.rpc.RpcClient;
import com.alipay.remoting.rpc.RpcServer;
import com.alipay.remoting.rpc.protocol.RpcHeartBeatProcessor;
import com.alipay.remoting.rpc.protocol.RpcRequestCommand;
import com.alipay.remoting.rpc.protocol.RpcResponseCommand;
import com.alipay.remoting.rpc.protocol.UserProcessor;
import io.boltgen.runtime.WireProtocol;
import io.netty.channel.Channel;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Helpers for driving a real SOFABolt 1.6.10 peer from a test.
 *
 * <p>SOFABolt keeps its registries in static state (one per JVM): custom serializers can be registered
 * once per className ({@link #registerRaw} is idempotent), and the heartbeat processor is replaced once
 * per protocol by a counting one that delegates to SOFABolt's own ({@link #heartbeats}).
 */
final class SofaBolt {

  private SofaBolt() {}

  /** Bounded waits of the tests, in milliseconds. */
  static final int TIMEOUT_MS = 10_000;

  // ---------------------------------------------------------------- addresses

  /** A SOFABolt client URL that makes it speak {@code format}. */
  static String url(int port, WireProtocol format) {
    return "127.0.0.1:" + port + switch (format) {
      case V1 -> "?_PROTOCOL=1";
      case V2 -> "?_PROTOCOL=2&_VERSION=1";
      case V2_CRC -> "?_PROTOCOL=2&_VERSION=2";
    };
  }

  /** The frame format SOFABolt latched on {@code channel} (from its first frame, or the client's URL). */
  static WireProtocol formatOf(Channel channel) {
    ProtocolCode code = channel.attr(Connection.PROTOCOL).get();
    if (code == null) {
      return null;
    }
    if (code.getFirstByte() == 1) {
      return WireProtocol.V1;
    }
    Byte version = channel.attr(Connection.VERSION).get();
    return version != null && version == 2 ? WireProtocol.V2_CRC : WireProtocol.V2;
  }

  // ---------------------------------------------------------------- lifecycle

  /** A started SOFABolt server on 127.0.0.1 and a free port, closing its connections when stopped. */
  static RpcServer startServer(UserProcessor<?>... processors) {
    RpcServer server = new RpcServer("127.0.0.1", 0, true);
    for (UserProcessor<?> processor : processors) {
      server.registerUserProcessor(processor);
    }
    server.startup();
    if (server.port() == 0) {
      throw new IllegalStateException("SOFABolt server did not report its port");
    }
    return server;
  }

  /** A started SOFABolt client with {@code processors} (for duplex calls from its servers). */
  static RpcClient startClient(UserProcessor<?>... processors) {
    RpcClient client = new RpcClient();
    for (UserProcessor<?> processor : processors) {
      client.registerUserProcessor(processor);
    }
    client.startup();
    return client;
  }

  /** An invoke context that makes a SOFABolt peer write {@code codec} into the request's codec byte. */
  static InvokeContext codec(byte codec) {
    InvokeContext context = new InvokeContext();
    context.put(InvokeContext.BOLT_CUSTOM_SERIALIZER, codec);
    return context;
  }

  /**
   * A pool of one thread and a queue of one, as SOFABolt servers and boltgen servers both accept: block
   * its thread and fill its queue and the next task is rejected.
   */
  static ThreadPoolExecutor tinyPool() {
    return new ThreadPoolExecutor(1, 1, 60, TimeUnit.SECONDS, new ArrayBlockingQueue<>(1),
        r -> {
          Thread t = new Thread(r, "interop-tiny-pool");
          t.setDaemon(true);
          return t;
        }, new ThreadPoolExecutor.AbortPolicy());
  }

  /** A SOFABolt callback that completes {@code future}; a null executor means SOFABolt's default one. */
  static InvokeCallback callback(CompletableFuture<Object> future, Executor executor) {
    return new InvokeCallback() {
      @Override
      public void onResponse(Object result) {
        future.complete(result);
      }

      @Override
      public void onException(Throwable e) {
        future.completeExceptionally(e);
      }

      @Override
      public Executor getExecutor() {
        return executor;
      }
    };
  }

  // ---------------------------------------------------------------- raw content

  private static final Set<String> REGISTERED = ConcurrentHashMap.newKeySet();
  private static final Map<String, Seen> LAST_REQUEST = new ConcurrentHashMap<>();
  private static final Map<String, Seen> LAST_RESPONSE = new ConcurrentHashMap<>();

  /**
   * What a raw serializer saw of one command: its codec byte, its switch byte's CRC bit, its content
   * length, and its header entries (parsed in SOFARPC's layout; {@code null} when it had no header).
   */
  record Seen(byte codec, boolean crcSwitch, int contentLength, Map<String, String> header) {}

  /**
   * Makes SOFABolt carry the content of requests and responses whose className is {@code className} as
   * raw bytes ({@link RawContent}) instead of Hessian, whatever the codec byte says, and their header in
   * SOFARPC's key/value layout. Idempotent (SOFABolt itself throws on a second registration).
   */
  static void registerRaw(String className) {
    if (REGISTERED.add(className)) {
      CustomSerializerManager.registerCustomSerializer(className, new RawSerializer(className));
    }
  }

  /** The last request with {@code className} SOFABolt serialized or deserialized, or {@code null}. */
  static Seen lastRequest(String className) {
    return LAST_REQUEST.get(className);
  }

  /** The last response with {@code className} SOFABolt serialized or deserialized, or {@code null}. */
  static Seen lastResponse(String className) {
    return LAST_RESPONSE.get(className);
  }

  private static final class RawSerializer extends DefaultCustomSerializer {
    private final String className;

    RawSerializer(String className) {
      this.className = className;
    }

    @Override
    public <T extends RequestCommand> boolean serializeHeader(T request, InvokeContext invokeContext) {
      RpcRequestCommand command = (RpcRequestCommand) request;
      Map<String, String> header = ((RawContent) command.getRequestObject()).header();
      if (header != null) {
        command.setHeader(SimpleMap.encode(header));
      }
      return true;
    }

    @Override
    public <T extends RequestCommand> boolean deserializeHeader(T request) {
      RpcRequestCommand command = (RpcRequestCommand) request;
      command.setRequestHeader(SimpleMap.decode(command.getHeader()));
      return true;
    }

    @Override
    public <T extends RequestCommand> boolean serializeContent(T request, InvokeContext invokeContext) {
      RpcRequestCommand command = (RpcRequestCommand) request;
      RawContent raw = (RawContent) command.getRequestObject();
      byte[] bytes = raw.bytes();
      command.setContent(bytes);
      LAST_REQUEST.put(className, seen(command, bytes, raw.header()));
      return true;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T extends RequestCommand> boolean deserializeContent(T request) {
      RpcRequestCommand command = (RpcRequestCommand) request;
      byte[] bytes = command.getContent();
      Map<String, String> header = (Map<String, String>) command.getRequestHeader();
      command.setRequestObject(new RawContent(bytes, header));
      LAST_REQUEST.put(className, seen(command, bytes, header));
      return true;
    }

    @Override
    public <T extends ResponseCommand> boolean serializeHeader(T response) {
      RpcResponseCommand command = (RpcResponseCommand) response;
      Map<String, String> header = ((RawContent) command.getResponseObject()).header();
      if (header != null) {
        command.setHeader(SimpleMap.encode(header));
      }
      return true;
    }

    @Override
    public <T extends ResponseCommand> boolean deserializeHeader(T response, InvokeContext invokeContext) {
      RpcResponseCommand command = (RpcResponseCommand) response;
      command.setResponseHeader(SimpleMap.decode(command.getHeader()));
      return true;
    }

    @Override
    public <T extends ResponseCommand> boolean serializeContent(T response) {
      RpcResponseCommand command = (RpcResponseCommand) response;
      RawContent raw = (RawContent) command.getResponseObject();
      byte[] bytes = raw.bytes();
      command.setContent(bytes);
      LAST_RESPONSE.put(className, seen(command, bytes, raw.header()));
      return true;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T extends ResponseCommand> boolean deserializeContent(T response, InvokeContext invokeContext) {
      RpcResponseCommand command = (RpcResponseCommand) response;
      byte[] bytes = command.getContent();
      Map<String, String> header = (Map<String, String>) command.getResponseHeader();
      command.setResponseObject(new RawContent(bytes, header));
      LAST_RESPONSE.put(className, seen(command, bytes, header));
      return true;
    }

    private static Seen seen(com.alipay.remoting.rpc.RpcCommand command, byte[] bytes, Map<String, String> header) {
      return new Seen(command.getSerializer(), command.getProtocolSwitch() != null
          && command.getProtocolSwitch().isOn(ProtocolSwitch.CRC_SWITCH_INDEX), bytes == null ? 0 : bytes.length,
          header);
    }
  }

  /**
   * SOFARPC's SimpleMapSerializer layout, written from the wire format (not from the runtime): repeated
   * {@code int32 keyLength, key, int32 valueLength, value} in UTF-8, -1 for null, no count prefix.
   */
  static final class SimpleMap {
    private SimpleMap() {}

    static byte[] encode(Map<String, String> map) {
      java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
      java.io.DataOutputStream data = new java.io.DataOutputStream(out);
      try {
        for (Map.Entry<String, String> e : map.entrySet()) {
          for (String s : new String[] {e.getKey(), e.getValue()}) {
            if (s == null) {
              data.writeInt(-1);
            } else {
              byte[] b = s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
              data.writeInt(b.length);
              data.write(b);
            }
          }
        }
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      return out.toByteArray();
    }

    /** The entries of {@code bytes}, in order; {@code null} for no header at all. */
    static Map<String, String> decode(byte[] bytes) {
      if (bytes == null) {
        return null;
      }
      Map<String, String> map = new java.util.LinkedHashMap<>();
      java.nio.ByteBuffer in = java.nio.ByteBuffer.wrap(bytes);
      while (in.hasRemaining()) {
        String key = read(in);
        map.put(key, read(in));
      }
      return map;
    }

    private static String read(java.nio.ByteBuffer in) {
      int length = in.getInt();
      if (length == -1) {
        return null;
      }
      byte[] b = new byte[length];
      in.get(b);
      return new String(b, java.nio.charset.StandardCharsets.UTF_8);
    }
  }

  // ---------------------------------------------------------------- heartbeats

  private static volatile HeartbeatCounter heartbeatCounter;

  /**
   * The heartbeat counter, installed (once per JVM) in place of SOFABolt's heartbeat processor for both
   * protocols; it counts per channel, then lets SOFABolt's own processor do its work (ack a heartbeat,
   * or complete the heartbeat's future on an ack).
   */
  static synchronized HeartbeatCounter heartbeats() {
    if (heartbeatCounter == null) {
      try {
        // SOFABolt registers its protocols in RpcRemoting's static initializer
        Class.forName("com.alipay.remoting.rpc.RpcRemoting", true, SofaBolt.class.getClassLoader());
      } catch (ClassNotFoundException e) {
        throw new IllegalStateException(e);
      }
      HeartbeatCounter counter = new HeartbeatCounter();
      for (byte code : new byte[] {1, 2}) {
        ProtocolManager.getProtocol(ProtocolCode.fromBytes(code)).getCommandHandler()
            .registerProcessor(CommonCommandCode.HEARTBEAT, counter);
      }
      heartbeatCounter = counter;
    }
    return heartbeatCounter;
  }

  /** Counts heartbeats and heartbeat acks per channel, on whichever side of SOFABolt receives them. */
  static final class HeartbeatCounter extends RpcHeartBeatProcessor {
    private final Map<Channel, AtomicInteger> heartbeats = new ConcurrentHashMap<>();
    private final Map<Channel, AtomicInteger> acks = new ConcurrentHashMap<>();

    @Override
    public void doProcess(RemotingContext ctx, RemotingCommand msg) {
      Channel channel = ctx.getChannelContext().channel();
      if (msg instanceof HeartbeatCommand) {
        heartbeats.computeIfAbsent(channel, c -> new AtomicInteger()).incrementAndGet();
      } else if (msg instanceof HeartbeatAckCommand) {
        acks.computeIfAbsent(channel, c -> new AtomicInteger()).incrementAndGet();
      }
      super.doProcess(ctx, msg);
    }

    /** Heartbeats a SOFABolt server received on {@code channel} (and answered). */
    int heartbeatsReceived(Channel channel) {
      AtomicInteger n = heartbeats.get(channel);
      return n == null ? 0 : n.get();
    }

    /** Heartbeats received by SOFABolt servers on any channel whose remote address is {@code remote}. */
    int heartbeatsReceivedFrom(java.net.SocketAddress remote) {
      int total = 0;
      for (Map.Entry<Channel, AtomicInteger> e : heartbeats.entrySet()) {
        if (remote.equals(e.getKey().remoteAddress())) {
          total += e.getValue().get();
        }
      }
      return total;
    }

    /** Heartbeat acks a SOFABolt client received on {@code channel}. */
    int acksReceived(Channel channel) {
      AtomicInteger n = acks.get(channel);
      return n == null ? 0 : n.get();
    }
  }
}
