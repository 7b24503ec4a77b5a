package io.boltgen.hessian;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** Each named limit of the reader, just at it (read) and one over it (refused with HessianException). */
class HessianLimitsTest {

  private static Object read(byte[] bytes) {
    ByteBuf in = Unpooled.wrappedBuffer(bytes);
    try {
      return new HessianReader(in).readValue();
    } finally {
      in.release();
    }
  }

  private static byte[] written(Consumer<HessianWriter> write) {
    HessianWriter sizing = HessianWriter.sizing();
    write.accept(sizing);
    ByteBuf out = Unpooled.buffer(sizing.size());
    try {
      write.accept(HessianWriter.to(out));
      byte[] bytes = new byte[out.readableBytes()];
      out.readBytes(bytes);
      return bytes;
    } finally {
      out.release();
    }
  }

  /** {@code depth} lists, each holding the next, the innermost holding null: built by hand (the writer refuses). */
  private static byte[] nestedLists(int depth) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < depth; i++) {
      out.write('V');
      out.write(0x6e);
      out.write(1);
    }
    out.write('N');
    for (int i = 0; i < depth; i++) {
      out.write('z');
    }
    return out.toByteArray();
  }

  @Test
  void nestingUpToTheDepthLimitIsRead() {
    assertThat(read(nestedLists(HessianReader.MAX_DEPTH))).isInstanceOf(List.class);
    assertThatThrownBy(() -> read(nestedLists(HessianReader.MAX_DEPTH + 1))).isInstanceOf(HessianException.class);
  }

  private static HessianType<String> emptyClass(String name, int fields) {
    String[] names = new String[fields];
    for (int i = 0; i < fields; i++) {
      names[i] = "f" + i;
    }
    HessianClass definition = HessianClass.of(name, names);
    return new HessianType<>() {
      @Override
      public HessianClass hessianClass() {
        return definition;
      }

      @Override
      public void writeFields(HessianWriter out, String value) {
        for (int i = 0; i < fields; i++) {
          out.writeNull();
        }
      }

      @Override
      public String readFields(HessianReader in, HessianClass sent) {
        throw new UnsupportedOperationException("written only");
      }
    };
  }

  private static byte[] objectsOfDistinctClasses(int classes) {
    List<HessianType<String>> types = new ArrayList<>();
    for (int i = 0; i < classes; i++) {
      types.add(emptyClass("c" + i, 0));
    }
    return written(out -> out.writeList("", types, (o, type) -> o.writeObject(type, "x")));
  }

  @Test
  void classDefinitionsUpToTheLimitAreRead() {
    assertThat((List<?>) read(objectsOfDistinctClasses(HessianReader.MAX_CLASS_DEFINITIONS)))
        .hasSize(HessianReader.MAX_CLASS_DEFINITIONS);
    assertThatThrownBy(() -> read(objectsOfDistinctClasses(HessianReader.MAX_CLASS_DEFINITIONS + 1)))
        .isInstanceOf(HessianException.class);
  }

  @Test
  void fieldsUpToTheLimitAreRead() {
    HessianType<String> most = emptyClass("wide", HessianReader.MAX_FIELDS);
    assertThat(((HessianReader.Instance) read(written(out -> out.writeObject(most, "x")))).fields())
        .hasSize(HessianReader.MAX_FIELDS);
    HessianType<String> tooMany = emptyClass("wider", HessianReader.MAX_FIELDS + 1);
    assertThatThrownBy(() -> read(written(out -> out.writeObject(tooMany, "x")))).isInstanceOf(HessianException.class);
  }

  /** A list holding {@code inner} empty maps: {@code inner + 1} values that can be referred back to. */
  private static byte[] referencesOf(int inner) {
    List<Map<String, String>> maps = Collections.nCopies(inner, Map.of());
    return written(out -> out.writeList("", maps,
        (o, m) -> o.writeMap("", m, HessianWriter::writeString, HessianWriter::writeString)));
  }

  @Test
  void referencesUpToTheLimitAreRead() {
    assertThat((List<?>) read(referencesOf(HessianReader.MAX_REFERENCES - 1))).hasSize(HessianReader.MAX_REFERENCES - 1);
    assertThatThrownBy(() -> read(referencesOf(HessianReader.MAX_REFERENCES))).isInstanceOf(HessianException.class);
  }

  private static byte[] listsOfDistinctTypes(int types) {
    List<String> names = new ArrayList<>();
    for (int i = 0; i < types; i++) {
      names.add("t" + i);
    }
    return written(out -> out.writeList("", names,
        (o, type) -> o.writeList(type, List.of(), HessianWriter::writeString)));
  }

  @Test
  void typeNamesUpToTheLimitAreRead() {
    assertThat((List<?>) read(listsOfDistinctTypes(HessianReader.MAX_TYPES))).hasSize(HessianReader.MAX_TYPES);
    assertThatThrownBy(() -> read(listsOfDistinctTypes(HessianReader.MAX_TYPES + 1)))
        .isInstanceOf(HessianException.class);
  }
}
