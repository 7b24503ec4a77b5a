package io.boltgen.runtime;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * Virtual threads are asked for in the builders on any JVM the runtime runs on (it is compiled for Java 17):
 * before Java 21, the request fails at once saying so; from 21 on, it is taken ({@link VirtualThreadsTest}
 * shows what it does).
 */
class VirtualThreadsOptionTest {

  @Test
  void askingForVirtualThreadsNeedsJava21() {
    if (Runtime.version().feature() >= 21) {
      assertThatCode(() -> BoltServer.builder().virtualThreads()).doesNotThrowAnyException();
      assertThatCode(() -> BoltClient.builder().virtualThreads()).doesNotThrowAnyException();
    } else {
      assertThatThrownBy(() -> BoltServer.builder().virtualThreads())
          .isInstanceOf(UnsupportedOperationException.class)
          .hasMessageContaining("virtual threads need Java 21 or later; this JVM is Java " + Runtime.version());
      assertThatThrownBy(() -> BoltClient.builder().virtualThreads())
          .isInstanceOf(UnsupportedOperationException.class)
          .hasMessageContaining("virtual threads need Java 21 or later");
    }
  }
}
