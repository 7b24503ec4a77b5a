package io.boltgen.runtime.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The process-wide account of outbound bytes sheds the connection holding the most, and only as many as needed. */
class OutboundMemoryTest {

  private final OutboundMemory memory = new OutboundMemory(200_000);
  private final EmbeddedChannel small = new EmbeddedChannel();
  private final EmbeddedChannel large = new EmbeddedChannel();
  private final EmbeddedChannel medium = new EmbeddedChannel();
  private final WriteQueue smallQueue = queue(small);
  private final WriteQueue largeQueue = queue(large);
  private final WriteQueue mediumQueue = queue(medium);

  private WriteQueue queue(EmbeddedChannel channel) {
    channel.unsafe().outboundBuffer().setUserDefinedWritability(1, false); // a peer that does not read
    WriteQueue queue = new WriteQueue(channel, memory, null);
    memory.register(queue);
    return queue;
  }

  @AfterEach
  void tearDown() {
    for (WriteQueue q : new WriteQueue[] {smallQueue, largeQueue, mediumQueue}) {
      q.discardAll();
    }
    small.finishAndReleaseAll();
    large.finishAndReleaseAll();
    medium.finishAndReleaseAll();
  }

  private static void hold(EmbeddedChannel channel, WriteQueue queue, int bytes) {
    queue.enqueue(Unpooled.buffer(bytes).writeZero(bytes));
    channel.runPendingTasks(); // the drain finds the channel unwritable and reports what waits
  }

  @Test
  void aboveTheLimitTheConnectionHoldingTheMostIsClosedAndNoOtherOne() {
    hold(small, smallQueue, 70_000);
    hold(medium, mediumQueue, 90_000);
    assertThat(memory.total()).isEqualTo(160_000);
    assertThat(small.isActive() && medium.isActive()).isTrue();

    hold(large, largeQueue, 120_000); // 280,000 held: shedding the largest leaves 160,000, under the limit
    assertThat(large.isActive()).isFalse();
    assertThat(small.isActive()).isTrue();
    assertThat(medium.isActive()).isTrue();

    largeQueue.discardAll();
    largeQueue.report(); // its connection closed: it holds nothing any more
    assertThat(memory.total()).isEqualTo(160_000);
  }

  @Test
  void theLimitComesFromItsSystemProperty() {
    try {
      System.setProperty(OutboundMemory.LIMIT_PROPERTY, "12345");
      assertThat(OutboundMemory.fromSystemProperties().limit()).isEqualTo(12345);
      System.setProperty(OutboundMemory.LIMIT_PROPERTY, "lots");
      assertThatThrownBy(OutboundMemory::fromSystemProperties).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining(OutboundMemory.LIMIT_PROPERTY);
    } finally {
      System.clearProperty(OutboundMemory.LIMIT_PROPERTY);
    }
    assertThat(OutboundMemory.fromSystemProperties().limit()).isEqualTo(
        Math.max(64L << 20, OutboundMemory.maxDirectMemory() / 2));
  }
}
