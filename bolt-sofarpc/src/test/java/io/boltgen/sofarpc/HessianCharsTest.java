package io.boltgen.sofarpc;

import static io.boltgen.hessian.HessianFixtures.ours;
import static io.boltgen.hessian.HessianFixtures.sofaReadsObject;
import static io.boltgen.hessian.HessianFixtures.sofaWritesObject;
import static io.boltgen.hessian.HessianFixtures.weRead;
import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.hessian.HessianClass;
import io.boltgen.hessian.HessianReader;
import io.boltgen.hessian.HessianType;
import io.boltgen.hessian.HessianWriter;
import java.io.Serializable;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A {@code char} and a {@code Character}, which Hessian2 has no type for, against sofa-hessian both ways: it
 * writes them as strings of one character, and reads those back into a class's char fields.
 */
class HessianCharsTest {

  /** A peer's class with a char field and a Character field. */
  public static final class Letters implements Serializable {
    private static final long serialVersionUID = 1L;
    public char letter;
    public Character boxed;

    public Letters() {}

    Letters(char letter, Character boxed) {
      this.letter = letter;
      this.boxed = boxed;
    }
  }

  /** Letters as generated code maps it, with the helpers generated code calls. */
  private static final HessianType<Letters> LETTERS = new HessianType<>() {
    private final HessianClass hessianClass = HessianClass.of(Letters.class.getName(), "letter", "boxed");

    @Override
    public HessianClass hessianClass() {
      return hessianClass;
    }

    @Override
    public void writeFields(HessianWriter out, Letters value) {
      out.writeString(String.valueOf(value.letter));
      SofaRpcHessian.writeBox(out, value.boxed);
    }

    @Override
    public Letters readFields(HessianReader in, HessianClass sent) {
      Letters value = new Letters();
      for (int i = 0; i < sent.fieldCount(); i++) {
        switch (sent.fieldName(i)) {
          case "letter" -> value.letter = SofaRpcHessian.toChar(in.readString(), "Letters.letter");
          case "boxed" -> value.boxed = SofaRpcHessian.readCharBox(in, "Letters.boxed");
          default -> in.skipValue();
        }
      }
      return value;
    }
  };

  @Test
  void charsTravelAsSofaHessianWritesThem() {
    for (char c : List.of('a', '\u00e9', '\u4e2d', '\uffff', '\0', '\ud800')) {
      Letters letters = new Letters(c, c == 'a' ? null : Character.valueOf((char) (c ^ 1)));
      byte[] sofa = sofaWritesObject(letters);
      assertThat(ours(out -> out.writeObject(LETTERS, letters))).as("char %04x", (int) c).isEqualTo(sofa);
      Letters read = weRead(sofa, in -> in.readObject(LETTERS));
      assertThat(read.letter).isEqualTo(c);
      assertThat(read.boxed).isEqualTo(letters.boxed);
      Letters theirs = (Letters) sofaReadsObject(ours(out -> out.writeObject(LETTERS, letters)));
      assertThat(theirs.letter).isEqualTo(c);
      assertThat(theirs.boxed).isEqualTo(letters.boxed);
    }
    // a bare Character, as an argument travels
    assertThat(ours(out -> SofaRpcHessian.writeBox(out, 'x'))).isEqualTo(sofaWritesObject('x'));
    assertThat(sofaReadsObject(ours(out -> SofaRpcHessian.writeBox(out, 'x')))).isEqualTo("x");
  }
}
