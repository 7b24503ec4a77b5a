package io.boltgen.hessian;

import static io.boltgen.hessian.HessianFixtures.POINT;
import static io.boltgen.hessian.HessianFixtures.ours;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.boltgen.hessian.HessianFixtures.Point;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Untrusted input: mutated valid streams either read or fail with {@link HessianException}, never anything
 * else, and never read outside their bytes; sizing counts exactly what writing writes.
 */
class HessianFuzzTest {

  private static final int CASES = 20_000;

  @Test
  void mutatedStreamsReadOrFailWithHessianExceptionOnly() {
    Random random = new Random(42);
    List<byte[]> seeds = seeds(random);
    int failed = 0;
    for (int i = 0; i < CASES; i++) {
      byte[] bytes = mutate(seeds.get(random.nextInt(seeds.size())), random);
      for (int way = 0; way < 4; way++) {
        if (!readsOrFailsCleanly(bytes, way)) {
          failed++;
        }
      }
    }
    assertThat(failed).as("some mutations fail").isPositive();
  }

  /** Reads {@code bytes} from the middle of a larger buffer: false if it failed (with HessianException). */
  private static boolean readsOrFailsCleanly(byte[] bytes, int way) {
    ByteBuf whole = Unpooled.buffer(bytes.length + 16);
    whole.writeBytes(new byte[] {'V', 'V', 'V', 'V', 'V', 'V', 'V', 'V'}).writeBytes(bytes)
        .writeBytes(new byte[] {'z', 'z', 'z', 'z', 'z', 'z', 'z', 'z'});
    ByteBuf in = whole.slice(8, bytes.length);
    try {
      HessianReader reader = new HessianReader(in);
      switch (way) {
        case 0 -> {
          while (!reader.atEnd()) {
            reader.readValue();
          }
        }
        case 1 -> {
          while (!reader.atEnd()) {
            reader.skipValue();
          }
        }
        case 2 -> reader.readList(r -> r.readObject(POINT));
        default -> reader.readThrowable();
      }
      return true;
    } catch (HessianException expected) {
      return false;
    } finally {
      assertThat(in.readerIndex()).isBetween(0, bytes.length);
      whole.release();
    }
  }

  private static List<byte[]> seeds(Random random) {
    List<byte[]> seeds = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      Point point = HessianFixtures.randomPoint(random, 3);
      seeds.add(HessianFixtures.sofaWritesObject(new ArrayList<>(List.of(point, point))));
      seeds.add(ours(out -> out.writeList("", List.of(point, point), (o, p) -> o.writeObject(POINT, p))));
    }
    seeds.add(HessianFixtures.sofaWritesObject(new IllegalStateException("x", new RuntimeException("y"))));
    seeds.add(HessianFixtures.sofaWritesObject(Map.of("k", List.of(1L, 2.5, "s", new byte[] {1, 2}), "m", Map.of(1, true))));
    seeds.add(HessianFixtures.sofaWritesObject(new ArrayList<>(List.of(new String[] {"a"}, new String[] {"b"}))));
    seeds.add(HessianFixtures.sofaWritesObject("\u4e2d".repeat(0x8001)));
    seeds.add(HessianFixtures.sofaWritesObject(new byte[0x8001]));
    return seeds;
  }

  private static final int[] INTERESTING = {'N', 'O', 'o', 'V', 'v', 'M', 'z', 'R', 0x4a, 0x4b, 'S', 's', 'B', 'b',
      'l', 0x6e, 't', 0x75, 'I', 'L', 'D', 'd', 0xff, 0x00, 0x7f, 0x80, 0xbf, 0xc0, 0xd7, 0xe0, 0xef};

  private static byte[] mutate(byte[] seed, Random random) {
    byte[] bytes = seed;
    for (int n = 1 + random.nextInt(3); n > 0; n--) {
      int at = bytes.length == 0 ? 0 : random.nextInt(bytes.length);
      switch (random.nextInt(7)) {
        case 0 -> {
          bytes = bytes.clone();
          if (bytes.length > 0) {
            bytes[at] ^= (byte) (1 << random.nextInt(8));
          }
        }
        case 1 -> bytes = insert(bytes, at, new byte[] {(byte) INTERESTING[random.nextInt(INTERESTING.length)]});
        case 2 -> {
          int length = Math.min(1 + random.nextInt(4), bytes.length - at);
          byte[] cut = new byte[bytes.length - Math.max(length, 0)];
          System.arraycopy(bytes, 0, cut, 0, at);
          System.arraycopy(bytes, at + Math.max(length, 0), cut, at, cut.length - at);
          bytes = cut;
        }
        case 3 -> bytes = Arrays.copyOf(bytes, at);
        case 4 -> bytes = insert(bytes, at, new byte[] {(byte) "SBlV".charAt(random.nextInt(4)), 0x7f, -1, -1, -1});
        case 5 -> {
          byte[] deep = new byte[1 + random.nextInt(200)];
          Arrays.fill(deep, (byte) "VMo".charAt(random.nextInt(3)));
          bytes = insert(bytes, at, deep);
        }
        default -> {
          bytes = bytes.clone();
          if (bytes.length > 0) {
            bytes[at] = (byte) INTERESTING[random.nextInt(INTERESTING.length)];
          }
        }
      }
    }
    return bytes;
  }

  private static byte[] insert(byte[] bytes, int at, byte[] inserted) {
    byte[] result = new byte[bytes.length + inserted.length];
    System.arraycopy(bytes, 0, result, 0, at);
    System.arraycopy(inserted, 0, result, at, inserted.length);
    System.arraycopy(bytes, at, result, at + inserted.length, bytes.length - at);
    return result;
  }

  @Test
  void deepNestingFailsWithHessianException() {
    for (byte open : new byte[] {'V', 'M'}) {
      byte[] deep = new byte[100_000];
      Arrays.fill(deep, open);
      assertThatThrownBy(() -> HessianFixtures.weRead(deep, HessianReader::readValue))
          .isInstanceOf(HessianException.class).hasMessageContaining("nested deeper than 64");
      assertThatThrownBy(() -> HessianFixtures.weRead(deep, r -> {
        r.skipValue();
        return null;
      })).isInstanceOf(HessianException.class).hasMessageContaining("nested deeper than 64");
    }
    List<Object> self = new ArrayList<>();
    self.add(self);
    assertThatThrownBy(() -> ours(out -> writeNested(out, self)))
        .isInstanceOf(HessianException.class).hasMessageContaining("nested deeper than 64");
  }

  @SuppressWarnings("unchecked")
  private static void writeNested(HessianWriter out, Object list) {
    out.writeList("", (List<Object>) list, HessianFuzzTest::writeNested);
  }

  @Test
  void declaredLengthsLargerThanTheInputFailBeforeAllocating() {
    byte[][] huge = {{'S', -1, -1, 'a'}, {'B', -1, -1, 1}, {'V', 'l', 0x7f, -1, -1, -1, 'z'}, {'V', 't', -1, -1, 'a'},
        {'O', 'I', 0x7f, -1, -1, -1, 'a'}, {'O', (byte) 0x91, 'a', 'I', 0, 0, 0x04, 0, 1}, {'v', (byte) 0x90, (byte) 0x90},
        {'R', 0, 0, 0, 0}, {'o', (byte) 0x90}, {'s', 0, 1, 'a', 'B', 0, 0}, {(byte) 0xf0}, {1, (byte) 0xe0, (byte) 0x80},
        {1, (byte) 0x80}, {1, (byte) 0xc3, 'a'}, {1, (byte) 0xf0, (byte) 0x9f, (byte) 0x98, (byte) 0x80}};
    for (byte[] bytes : huge) {
      assertThatThrownBy(() -> HessianFixtures.weRead(bytes, HessianReader::readValue))
          .as(Arrays.toString(bytes)).isInstanceOf(HessianException.class);
    }
  }

  @Test
  void sizingCountsExactlyTheBytesWritten() {
    Random random = new Random(9);
    for (int i = 0; i < 2_000; i++) {
      List<Consumer<HessianWriter>> writes = new ArrayList<>();
      for (int n = random.nextInt(6); n >= 0; n--) {
        writes.add(switch (random.nextInt(8)) {
          case 0 -> {
            int v = HessianFixtures.randomInt(random);
            yield out -> out.writeInt(v);
          }
          case 1 -> {
            long v = HessianFixtures.randomLong(random);
            yield out -> out.writeLong(v);
          }
          case 2 -> {
            double v = HessianFixtures.randomDouble(random);
            yield out -> out.writeDouble(v);
          }
          case 3 -> {
            String v = random.nextInt(20) == 0 ? null : HessianFixtures.randomString(random);
            yield out -> out.writeString(v);
          }
          case 4 -> {
            byte[] v = HessianFixtures.randomBytes(random);
            yield out -> out.writeBytes(v);
          }
          case 5 -> {
            Point v = HessianFixtures.randomPoint(random, 2);
            yield out -> out.writeObject(POINT, v);
          }
          case 6 -> {
            String type = random.nextBoolean() ? "" : "java.util.TreeMap";
            yield out -> out.writeMap(type, Map.of("a", 1L), HessianWriter::writeString, HessianWriter::writeLong);
          }
          default -> {
            String type = random.nextBoolean() ? "" : "[string";
            yield out -> out.writeList(type, List.of("x", "y"), HessianWriter::writeString);
          }
        });
      }
      ours(out -> writes.forEach(w -> w.accept(out))); // checks sizing() against to(buf)
    }
  }
}
