package io.boltgen.example;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.alipay.remoting.CustomSerializerManager;
import com.alipay.remoting.DefaultCustomSerializer;
import com.alipay.remoting.InvokeContext;
import com.alipay.remoting.rpc.RequestCommand;
import com.alipay.remoting.rpc.ResponseCommand;
import com.alipay.remoting.rpc.RpcClient;
import com.alipay.remoting.rpc.exception.InvokeServerException;
import com.alipay.remoting.rpc.protocol.RpcRequestCommand;
import com.alipay.remoting.rpc.protocol.RpcResponseCommand;
import io.boltgen.runtime.BoltServer;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.codec.Marshaller;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A stock SOFABolt 1.6.10 RpcClient calls the generated skeleton of {@link Inventory}: it sends the
 * generated request record (so the frame's className is the record's binary name, one of the method's
 * aliases), with codec 11, content written by our generated codec through a SOFABolt CustomSerializer,
 * and reads the response (className {@code demo.inventory.GetResponse}) the same way. This is the mapping
 * docs/wire-format.md documents.
 */
class SofaBoltClientTest {

  private static final ExecutorService WORK = Executors.newFixedThreadPool(2);
  private static BoltServer server;
  private static RpcClient sofa;

  @BeforeAll
  static void start() {
    server = BoltServer.builder().bind("127.0.0.1", 0)
        .service(InventoryBolt.bind(new InventoryService(WORK, 0))).build().start();
    MethodDescriptor<InventoryBolt.GetRequest, Stock> get = InventoryBolt.METHOD_GET;
    assertThat(get.aliases()).containsExactly(InventoryBolt.GetRequest.class.getName());
    GeneratedCodecSerializer<?, ?> codec = new GeneratedCodecSerializer<>(get.requestMarshaller(), get.responseMarshaller());
    CustomSerializerManager.registerCustomSerializer(InventoryBolt.GetRequest.class.getName(), codec);
    CustomSerializerManager.registerCustomSerializer(get.responseClassName(), codec);
    sofa = new RpcClient();
    sofa.startup();
  }

  @AfterAll
  static void stop() {
    if (sofa != null) {
      sofa.shutdown();
    }
    if (server != null) {
      server.close();
    }
    WORK.shutdownNow();
  }

  private static InvokeContext protobufCodec() {
    InvokeContext context = new InvokeContext();
    context.put(InvokeContext.BOLT_CUSTOM_SERIALIZER, Marshaller.PROTOBUF);
    return context;
  }

  @ParameterizedTest
  @ValueSource(strings = {"?_PROTOCOL=1", "?_PROTOCOL=2&_VERSION=1", "?_PROTOCOL=2&_VERSION=2"})
  void aSofaBoltClientGetsTheStockFromTheGeneratedSkeleton(String format) throws Exception {
    Object answer = sofa.invokeSync("127.0.0.1:" + server.port() + format,
        new InventoryBolt.GetRequest(new SkuId("apple")), protobufCodec(), 5_000);
    assertThat(answer).isEqualTo(new Stock(new SkuId("apple"), 12, StockLevel.IN_STOCK,
        List.of(new WarehouseStock("north", 8), new WarehouseStock("south", 4)), Map.of()));
  }

  @ParameterizedTest
  @ValueSource(strings = {"?_PROTOCOL=1", "?_PROTOCOL=2&_VERSION=2"})
  void aSofaBoltClientReadsTheDeclaredErrorAsAServerException(String format) {
    assertThatThrownBy(() -> sofa.invokeSync("127.0.0.1:" + server.port() + format,
            new InventoryBolt.GetRequest(new SkuId("durian")), protobufCodec(), 5_000))
        .isInstanceOfSatisfying(InvokeServerException.class, e -> assertThat(e.getCause())
            .hasMessageContaining("io.boltgen.example.UnknownSkuException: no such SKU: durian"));
  }

  /** A SOFABolt CustomSerializer that writes and reads content with boltgen's generated codecs. */
  private static final class GeneratedCodecSerializer<Q, R> extends DefaultCustomSerializer {
    private final Marshaller<Q> request;
    private final Marshaller<R> response;

    GeneratedCodecSerializer(Marshaller<Q> request, Marshaller<R> response) {
      this.request = request;
      this.response = response;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T extends RequestCommand> boolean serializeContent(T command, InvokeContext context) {
      RpcRequestCommand rpc = (RpcRequestCommand) command;
      Q value = (Q) rpc.getRequestObject();
      ByteBuf buf = Unpooled.buffer(request.encodedSize(value));
      try {
        request.write(value, buf);
        rpc.setContent(ByteBufUtil.getBytes(buf));
      } finally {
        buf.release();
      }
      return true;
    }

    @Override
    public <T extends ResponseCommand> boolean deserializeContent(T command, InvokeContext context) {
      RpcResponseCommand rpc = (RpcResponseCommand) command;
      ByteBuf buf = Unpooled.wrappedBuffer(rpc.getContent());
      try {
        rpc.setResponseObject(response.read(buf));
      } finally {
        buf.release();
      }
      return true;
    }
  }
}
