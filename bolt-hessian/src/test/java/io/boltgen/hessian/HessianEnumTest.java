package io.boltgen.hessian;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** An enum read by its name: a constant, null, and a name that is none, the peer's text kept out of the message. */
class HessianEnumTest {

  private static ByteBuf written(String name) {
    ByteBuf buf = Unpooled.buffer();
    HessianWriter out = HessianWriter.to(buf);
    if (name == null) {
      out.writeNull();
    } else {
      out.writeString(name);
    }
    return buf;
  }

  @Test
  void aNameReadsAsItsConstantAndNullAsNull() {
    ByteBuf days = written("DAYS");
    ByteBuf none = written(null);
    try {
      assertThat(new HessianReader(days).readEnumName(TimeUnit.class)).isEqualTo(TimeUnit.DAYS);
      assertThat(new HessianReader(none).readEnumName(TimeUnit.class)).isNull();
    } finally {
      days.release();
      none.release();
    }
  }

  @Test
  void aNameThatIsNoConstantFailsWithThePeersTextApart() {
    ByteBuf weeks = written("WEEKS\n\u001b[31m");
    try {
      assertThatThrownBy(() -> new HessianReader(weeks).readEnumName(TimeUnit.class))
          .isInstanceOfSatisfying(HessianException.class, e -> {
            assertThat(e.peerText()).isEqualTo("WEEKS\n\u001b[31m");
            assertThat(e.getMessage()).contains("java.util.concurrent.TimeUnit").doesNotContain("WEEKS");
          });
    } finally {
      weeks.release();
    }
  }
}
