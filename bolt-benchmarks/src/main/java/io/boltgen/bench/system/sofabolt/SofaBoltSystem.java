package io.boltgen.bench.system.sofabolt;

import com.alipay.remoting.BizContext;
import com.alipay.remoting.InvokeCallback;
import com.alipay.remoting.config.BoltClientOption;
import com.alipay.remoting.config.BoltServerOption;
import com.alipay.remoting.rpc.RpcClient;
import com.alipay.remoting.rpc.RpcServer;
import com.alipay.remoting.rpc.protocol.SyncUserProcessor;
import io.boltgen.bench.system.EchoSystem;
import java.util.concurrent.Executor;

/**
 * SOFABolt 1.6.10 (on Netty 4.2.18): an {@code RpcServer} with a {@code SyncUserProcessor<byte[]>} that
 * returns the request, an {@code RpcClient} calling {@code invokeSync} and {@code invokeWithCallback} (callback
 * executor {@code null}: SOFABolt runs it where it processed the response). Content is Hessian2, SOFABolt's
 * default serializer; timeouts are 3 s as for every system.
 *
 * <p>Configurations: {@code sofabolt} (defaults), {@code sofabolt-fc} ({@code bolt.netty.flush_consolidation}
 * on, client and server, as SOFABolt's own benchmark does, and write-buffer water marks of 512 KiB / 1 MiB
 * instead of 32 / 64 KiB, above which SOFABolt refuses calls with "maybe write overflow": 256 calls of 1 KiB
 * in flight exceed the default), {@code sofabolt-io} (both, and {@code processInIOThread}).
 */
public final class SofaBoltSystem implements EchoSystem {

  static final int TIMEOUT_MS = 3000;
  static final int LOW_WATER_MARK = 512 * 1024;
  static final int HIGH_WATER_MARK = 1024 * 1024;

  private final boolean flushConsolidation;
  private final boolean ioThread;

  public SofaBoltSystem(boolean flushConsolidation, boolean ioThread) {
    this.flushConsolidation = flushConsolidation;
    this.ioThread = ioThread;
  }

  @Override
  public String id() {
    if (ioThread) {
      return "sofabolt-io";
    }
    return flushConsolidation ? "sofabolt-fc" : "sofabolt";
  }

  @Override
  public String family() {
    return "sofabolt";
  }

  @Override
  public String description() {
    if (ioThread) {
      return "as sofabolt-fc, and processInIOThread: handler on the IO thread";
    }
    return flushConsolidation
        ? "bolt.netty.flush_consolidation on, water marks 512 KiB / 1 MiB (client and server)"
        : "defaults";
  }

  @Override
  public EchoServer startServer(String host, int port) {
    RpcServer server = new RpcServer(host, port, false);
    server.option(BoltServerOption.NETTY_FLUSH_CONSOLIDATION, flushConsolidation);
    if (flushConsolidation) {
      server.initWriteBufferWaterMark(LOW_WATER_MARK, HIGH_WATER_MARK);
    }
    server.registerUserProcessor(new EchoProcessor(ioThread));
    server.startup();
    return EchoServer.of(server.port(), server::shutdown);
  }

  @Override
  public EchoClient connect(String host, int port) throws Exception {
    RpcClient client = new RpcClient();
    client.option(BoltClientOption.NETTY_FLUSH_CONSOLIDATION, flushConsolidation);
    if (flushConsolidation) {
      client.initWriteBufferWaterMark(LOW_WATER_MARK, HIGH_WATER_MARK);
    }
    client.startup();
    String address = host + ":" + port;
    try {
      client.getConnection(address, TIMEOUT_MS);
    } catch (Exception e) {
      client.shutdown();
      throw e;
    }
    return new EchoClient() {
      @Override
      public int call(byte[] payload) throws Exception {
        return ((byte[]) client.invokeSync(address, payload, TIMEOUT_MS)).length;
      }

      @Override
      public void call(byte[] payload, Completion done) {
        try {
          client.invokeWithCallback(address, payload, new InvokeCallback() {
            @Override
            public void onResponse(Object result) {
              done.done(((byte[]) result).length, null);
            }

            @Override
            public void onException(Throwable e) {
              done.done(-1, e);
            }

            @Override
            public Executor getExecutor() {
              return null;
            }
          }, TIMEOUT_MS);
        } catch (Throwable t) {
          done.done(-1, t);
        }
      }

      @Override
      public void close() {
        client.shutdown();
      }
    };
  }

  /** Echoes {@code byte[]} requests (the request className SOFABolt writes for a byte[] is "[B"). */
  static final class EchoProcessor extends SyncUserProcessor<byte[]> {
    private final boolean ioThread;

    EchoProcessor(boolean ioThread) {
      this.ioThread = ioThread;
    }

    @Override
    public Object handleRequest(BizContext context, byte[] request) {
      return request;
    }

    @Override
    public String interest() {
      return byte[].class.getName();
    }

    @Override
    public boolean processInIOThread() {
      return ioThread;
    }
  }
}
