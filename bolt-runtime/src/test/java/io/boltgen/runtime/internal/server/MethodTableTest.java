package io.boltgen.runtime.internal.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.ServiceDefinition;
import io.boltgen.runtime.codec.RawBytesMarshaller;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The served-method table finds every className it holds and nothing else, whatever the names' lengths and
 * wherever they differ: its hash reads only the first, middle and last eight bytes, so names that differ
 * elsewhere collide and must be told apart by their bytes.
 */
class MethodTableTest {

  private static MethodDescriptor<byte[], byte[]> method(String wireName, int code) {
    return MethodDescriptor.newBuilder(RawBytesMarshaller.withCodecId((byte) 1), RawBytesMarshaller.withCodecId((byte) 1))
        .serviceName("test.Table")
        .serviceVersion("1.0")
        .methodName("m" + code)
        .wireName(wireName)
        .methodCode(code)
        .build();
  }

  private static MethodTable table(List<String> names) {
    ServiceDefinition.Builder service = ServiceDefinition.builder("test.Table", "1.0");
    for (int i = 0; i < names.size(); i++) {
      service.method(method(names.get(i), i), (request, call) -> call.respond(request));
    }
    return MethodTable.builder().addDescriptors(List.of(service.build())).build();
  }

  private static MethodEntry find(MethodTable table, String name) {
    byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
    byte[] padded = new byte[bytes.length + 9]; // as in the per-thread scratch array: more room than the name
    System.arraycopy(bytes, 0, padded, 0, bytes.length);
    padded[bytes.length] = 'x';
    return table.lookup(padded, bytes.length);
  }

  /** A name of {@code length} ASCII characters. */
  private static String name(Random random, int length) {
    StringBuilder s = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      s.append((char) ('a' + random.nextInt(26)));
    }
    return s.toString();
  }

  private static String withCharAt(String name, int index, char c) {
    return name.substring(0, index) + c + name.substring(index + 1);
  }

  @Test
  void everyNameIsFoundAndNamesThatDifferInOneCharacterAnywhereAreNot() {
    for (long seed = 1; seed <= 40; seed++) {
      Random random = new Random(seed);
      // one family of names of one length that differ only at one position (a middle byte the hash skips, for
      // lengths over 24), plus names of every length from 1 to 40 and a few long ones
      int length = 1 + random.nextInt(60);
      String base = name(random, length);
      Set<String> names = new HashSet<>();
      int position = random.nextInt(length);
      for (char c = 'a'; c <= 'z'; c++) {
        names.add(withCharAt(base, position, c));
      }
      for (int n = 1; n <= 40; n++) {
        names.add(name(random, n));
      }
      names.add(name(random, 300));
      names.add("com.example.demo.InventoryService.reserve ü");
      List<String> list = new ArrayList<>(names);
      MethodTable table = table(list);
      for (int i = 0; i < list.size(); i++) {
        MethodEntry entry = find(table, list.get(i));
        assertThat(entry).as("seed %d: %s", seed, list.get(i)).isNotNull();
        assertThat(entry.method().wireName()).isEqualTo(list.get(i));
      }
      for (int trial = 0; trial < 200; trial++) {
        String known = list.get(random.nextInt(list.size()));
        int at = random.nextInt(known.length());
        String other = random.nextBoolean() ? withCharAt(known, at, (char) ('A' + random.nextInt(26)))
            : random.nextBoolean() ? known.substring(0, at) : known + name(random, 1 + random.nextInt(3));
        if (!names.contains(other)) {
          assertThat(find(table, other)).as("seed %d: %s", seed, other).isNull();
        }
      }
      assertThat(find(table, "")).isNull();
    }
  }

  @Test
  void aNameRegisteredTwiceIsRefused() {
    assertThatThrownBy(() -> table(List.of("demo.Echo.echo", "demo.Other.x", "demo.Echo.echo")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("demo.Echo.echo");
  }
}
