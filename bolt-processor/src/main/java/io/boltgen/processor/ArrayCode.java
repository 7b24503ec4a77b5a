package io.boltgen.processor;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import io.boltgen.processor.Model.RepeatedType;
import java.util.List;

/**
 * The code every codec writer shares for a repeated field, which may be a {@code List}, a {@code Set} or an array:
 * readers collect its elements in a list (a set) and turn it into the declared type at the end; writers loop over
 * it either way.
 */
final class ArrayCode {

  private ArrayCode() {}

  /** Whether {@code local}, holding a value of {@code r}, has an element. */
  static CodeBlock notEmpty(RepeatedType r, String local) {
    return r.array() ? CodeBlock.of("$L != null && $L.length != 0", local, local)
        : CodeBlock.of("$L != null && !$L.isEmpty()", local, local);
  }

  /** The type of the loop variable over a value of {@code r}: an array's component, a collection's box. */
  static TypeName element(RepeatedType r) {
    return r.array() ? r.element().javaType() : r.element().javaType().box();
  }

  /** The type a reader collects {@code r}'s elements in: the collection itself, or a list for an array. */
  static TypeName collected(RepeatedType r) {
    return r.array() ? ParameterizedTypeName.get(ClassName.get(List.class), r.element().javaType().box())
        : r.javaType();
  }

  /** The array of {@code r} holding the elements of the list {@code list} ({@code null} for {@code null}). */
  static CodeBlock fromList(RepeatedType r, CodeBlock list) {
    TypeName component = r.element().javaType();
    if (component.isPrimitive()) {
      return CodeBlock.of("$T.$Ls($L)", Names.ARRAY_VALUES, component, list);
    }
    return CodeBlock.of("$T.array($L, $T[]::new)", Names.ARRAY_VALUES, list, component);
  }
}
