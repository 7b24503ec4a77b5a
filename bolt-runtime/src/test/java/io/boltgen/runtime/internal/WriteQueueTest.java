package io.boltgen.runtime.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The write queue on an embedded channel whose writability the test switches. */
class WriteQueueTest {

  private final EmbeddedChannel channel = new EmbeddedChannel();
  private final WriteQueue queue = new WriteQueue(channel, null, null);

  @AfterEach
  void tearDown() {
    channel.finishAndReleaseAll();
  }

  private void writable(boolean writable) {
    channel.unsafe().outboundBuffer().setUserDefinedWritability(1, writable);
    channel.runPendingTasks();
  }

  private List<Integer> written() {
    List<Integer> sizes = new ArrayList<>();
    for (ByteBuf b; (b = channel.readOutbound()) != null; ) {
      sizes.add(b.readableBytes());
      b.release();
    }
    return sizes;
  }

  /** An answer that counts how it ended. */
  private static final class Answer implements DeferredFrame {
    final int size;
    int encoded;
    int discarded;

    Answer(int size) {
      this.size = size;
    }

    @Override
    public ByteBuf encode() {
      encoded++;
      return Unpooled.buffer(size).writeZero(size);
    }

    @Override
    public void discard() {
      discarded++;
    }
  }

  @Test
  void framesWaitWhileTheChannelIsNotWritableAndLeaveWhenItIs() {
    writable(false);
    Answer answer = new Answer(3);
    queue.enqueue(Unpooled.buffer(1).writeZero(1));
    queue.enqueue(answer);
    channel.runPendingTasks();
    assertThat(written()).isEmpty();
    assertThat(answer.encoded).as("not encoded while it cannot leave").isZero();
    assertThat(queue.queuedBytes()).isEqualTo(1);

    writable(true);
    queue.resume();
    channel.runPendingTasks();
    assertThat(written()).containsExactly(1, 3);
    assertThat(answer.encoded).isEqualTo(1);
    assertThat(queue.queuedBytes()).isZero();
  }

  @Test
  void theBudgetRefusesAFrameThatWouldExceedItButNeverTheFirst() {
    writable(false);
    ByteBuf huge = Unpooled.buffer(100).writeZero(100);
    assertThat(queue.tryEnqueue(huge, 10)).as("a frame into an empty queue always fits").isTrue();
    ByteBuf more = Unpooled.buffer(1).writeZero(1);
    assertThat(queue.tryEnqueue(more, 10)).isFalse();
    more.release(); // refused: still the caller's
    assertThat(queue.queuedBytes()).isEqualTo(100);
    writable(true);
    queue.resume();
    channel.runPendingTasks();
    assertThat(written()).containsExactly(100);
    ByteBuf fits = Unpooled.buffer(1).writeZero(1);
    assertThat(queue.tryEnqueue(fits, 10)).isTrue();
  }

  @Test
  void aClosedChannelDiscardsWhatWaitsAndTellsTheAnswers() {
    writable(false);
    Answer answer = new Answer(3);
    queue.enqueue(answer);
    queue.enqueue(Unpooled.buffer(5).writeZero(5));
    assertThat(channel.close().isSuccess()).isTrue();
    queue.discardAll();
    assertThat(answer.discarded).isEqualTo(1);
    assertThat(answer.encoded).isZero();
    assertThat(queue.queuedBytes()).isZero();
  }

  @Test
  void anAnswerThatCannotBeEncodedClosesTheConnectionAndTheQueueGoesOn() {
    queue.enqueue(new DeferredFrame() {
      @Override
      public ByteBuf encode() {
        throw new OutOfMemoryError("no direct memory, not even for an error answer");
      }

      @Override
      public void discard() {}
    });
    channel.runPendingTasks();
    assertThat(channel.isActive()).as("closed, so that its callers stop waiting").isFalse();
    // the queue is not stuck: what comes next is handled (discarded, the channel being closed)
    Answer after = new Answer(2);
    queue.enqueue(after);
    channel.runPendingTasks();
    assertThat(after.discarded).isEqualTo(1);
  }

  @Test
  void onTheIoThreadAFrameWithNothingQueuedBeforeItIsWrittenAtOnceAndOneQueuedBeforeItKeepsItsPlace() {
    // EmbeddedChannel: the test's thread is the channel's event loop
    Answer first = new Answer(3);
    Answer second = new Answer(4);
    queue.enqueue(first);
    queue.enqueue(second);
    assertThat(first.encoded).as("encoded at once, not queued").isEqualTo(1);
    assertThat(second.encoded).isEqualTo(1);
    channel.runPendingTasks();
    assertThat(written()).containsExactly(3, 4);

    // with a frame queued (an answer of a batch, not yet flushed), a later answer waits behind it: order holds
    Answer queued = new Answer(5);
    queue.enqueueLater(queued);
    Answer later = new Answer(6);
    queue.enqueue(later);
    assertThat(later.encoded).as("queued behind the waiting answer").isZero();
    queue.flush();
    channel.runPendingTasks();
    assertThat(written()).containsExactly(5, 6);
  }
}
