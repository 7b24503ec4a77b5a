package io.boltgen.runtime.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.runtime.EchoService;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.MethodType;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The className cache of an endpoint: one array per descriptor, and no more than its bound. */
class WireNamesTest {

  @Test
  void aDescriptorIsEncodedOnceAndItsBytesShared() {
    WireNames names = new WireNames();
    byte[] first = names.of(EchoService.ECHO);
    assertThat(new String(first, StandardCharsets.UTF_8)).isEqualTo(EchoService.ECHO.wireName());
    assertThat(names.of(EchoService.ECHO)).isSameAs(first);
    assertThat(names.size()).isEqualTo(1);
  }

  @Test
  void descriptorsBeyondTheBoundAreEncodedEachTimeInsteadOfFillingMemory() {
    WireNames names = new WireNames();
    for (int i = 0; i < WireNames.MAX_ENTRIES + 100; i++) {
      MethodDescriptor<byte[], byte[]> made = EchoService.method("m" + i, 0, MethodType.REQUEST_RESPONSE);
      assertThat(new String(names.of(made), StandardCharsets.UTF_8)).isEqualTo(made.wireName());
    }
    assertThat(names.size()).isEqualTo(WireNames.MAX_ENTRIES);
    MethodDescriptor<byte[], byte[]> late = EchoService.method("late", 0, MethodType.REQUEST_RESPONSE);
    assertThat(names.of(late)).isNotSameAs(names.of(late)).isEqualTo(late.wireName().getBytes(StandardCharsets.UTF_8));
    assertThat(names.size()).isEqualTo(WireNames.MAX_ENTRIES);
  }
}
