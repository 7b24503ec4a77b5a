package io.boltgen.processor;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.FieldSpec;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeSpec;
import io.boltgen.processor.Model.Field;
import io.boltgen.processor.Model.Message;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.lang.model.element.Modifier;

/**
 * The Hessian2 side of {@link SofaRpcWriter}: a {@code HessianType} per record and enum, and the expression that
 * writes or reads a value of each model type. Records are objects of their SOFARPC class with a field per
 * component (by name, so a peer may order them otherwise or have more); enums are objects with the one field
 * {@code name}, as Hessian writes Java enums; lists are Hessian's untyped ones (a Java peer reads an
 * {@code ArrayList}), maps {@code java.util.LinkedHashMap}s, so that their order survives as boltgen keeps it.
 */
final class SofaRpcTypes {

  /**
   * Names the generated {@code readFields} uses itself, among them the parameters {@code i1, i2…} of the lambdas
   * that read lists and maps; a component of such a name gets a '_' suffix.
   */
  private static final Set<String> INTERNAL = Set.of("in", "out", "sent", "i", "value");
  private static final Pattern LAMBDA_PARAMETER = Pattern.compile("i[0-9]+");

  private final SofaRpcModel sofa;
  private final ClassName owner;
  private final Map<ClassName, String> typeNames = new HashMap<>();
  private final Set<String> taken = new HashSet<>();

  SofaRpcTypes(SofaRpcModel sofa, ClassName owner) {
    this.sofa = sofa;
    this.owner = owner;
  }

  private String flatName(ClassName c) {
    return typeNames.computeIfAbsent(c, k -> {
      String name = Names.unique(String.join("_", k.simpleNames()), taken);
      taken.add(name);
      return name;
    });
  }

  /** The name of the {@code HessianType} constant of {@code c}: {@code X_TYPE}. */
  String constant(ClassName c) {
    return Names.upperSnake(flatName(c)) + "_TYPE";
  }

  /** {@code static final HessianType<X> X_TYPE = new XHessian();} */
  FieldSpec typeConstant(ClassName c) {
    return FieldSpec.builder(ParameterizedTypeName.get(Names.HESSIAN_TYPE, c), constant(c), Modifier.STATIC,
            Modifier.FINAL)
        .addJavadoc("{@link $T} as the SOFARPC side's {@code $L}.\n", c, sofa.remoteName(c))
        .initializer("new $LHessian()", flatName(c))
        .build();
  }

  TypeSpec enumType(Model.Enumeration e) {
    ClassName c = e.className();
    return hessianType(c, List.of("name"))
        .addMethod(MethodSpec.methodBuilder("writeFields")
            .addAnnotation(Override.class)
            .addModifiers(Modifier.PUBLIC)
            .addParameter(Names.HESSIAN_WRITER, "out")
            .addParameter(c, "value")
            .addStatement("out.writeString(value.name())")
            .build())
        .addMethod(MethodSpec.methodBuilder("readFields")
            .addAnnotation(Override.class)
            .addModifiers(Modifier.PUBLIC)
            .returns(c)
            .addParameter(Names.HESSIAN_READER, "in")
            .addParameter(Names.HESSIAN_CLASS, "sent")
            .addStatement("$T value = null", c)
            .beginControlFlow("for (int i = 0; i < sent.fieldCount(); i++)")
            .beginControlFlow("if (sent.fieldName(i).equals($S))", "name")
            .addStatement("value = in.readEnumName($T.class)", c)
            .nextControlFlow("else")
            .addStatement("in.skipValue()")
            .endControlFlow()
            .endControlFlow()
            .beginControlFlow("if (value == null)")
            .addStatement("throw new $T($S)", IllegalArgumentException.class, "an enum " + sofa.remoteName(c)
                + " without its name")
            .endControlFlow()
            .addStatement("return value")
            .build())
        .build();
  }

  TypeSpec recordType(Message message) {
    ClassName c = (ClassName) message.javaType();
    List<Field> fields = message.fields();
    MethodSpec.Builder write = MethodSpec.methodBuilder("writeFields")
        .addAnnotation(Override.class)
        .addModifiers(Modifier.PUBLIC)
        .addParameter(Names.HESSIAN_WRITER, "out")
        .addParameter(c, "value");
    MethodSpec.Builder read = MethodSpec.methodBuilder("readFields")
        .addAnnotation(Override.class)
        .addModifiers(Modifier.PUBLIC)
        .returns(c)
        .addParameter(Names.HESSIAN_READER, "in")
        .addParameter(Names.HESSIAN_CLASS, "sent");
    List<String> locals = locals(fields.stream().map(Field::name).toList(), INTERNAL);
    for (int i = 0; i < fields.size(); i++) {
      Field f = fields.get(i);
      write.addStatement("$L", write(f.type(), "out", CodeBlock.of("value.$L()", f.name()), 0));
      read.addStatement("$T $L = $L", f.type().javaType(), locals.get(i), defaultValue(f.type()));
    }
    read.beginControlFlow("for (int i = 0; i < sent.fieldCount(); i++)");
    read.beginControlFlow("switch (sent.fieldName(i))");
    for (int i = 0; i < fields.size(); i++) {
      read.addStatement("case $S -> $L = $L", fields.get(i).name(), locals.get(i),
          read(fields.get(i).type(), "in", 0, c.simpleName() + "." + fields.get(i).name()));
    }
    read.addStatement("default -> in.skipValue()");
    read.endControlFlow();
    read.endControlFlow();
    read.addStatement("return new $T($L)", c, String.join(", ", locals));
    return hessianType(c, fields.stream().map(Field::name).toList())
        .addMethod(write.build())
        .addMethod(read.build())
        .build();
  }

  /**
   * A declared exception as sofa-hessian writes a Throwable: {@code detailMessage}, then its own fields by name
   * (a peer's stack trace, cause and suppressed exceptions are skipped); rebuilt with its field constructor, or
   * its message constructor and setters.
   */
  TypeSpec exceptionType(SofaRpcExceptions.ExceptionForm form) {
    ClassName c = form.className();
    List<SofaRpcExceptions.ExceptionField> fields = form.fields();
    MethodSpec.Builder write = MethodSpec.methodBuilder("writeFields")
        .addAnnotation(Override.class)
        .addModifiers(Modifier.PUBLIC)
        .addParameter(Names.HESSIAN_WRITER, "out")
        .addParameter(c, "value")
        .addStatement("out.writeString($T.detailMessage(value))", Names.SOFA_RPC_HESSIAN);
    MethodSpec.Builder read = MethodSpec.methodBuilder("readFields")
        .addAnnotation(Override.class)
        .addModifiers(Modifier.PUBLIC)
        .returns(c)
        .addParameter(Names.HESSIAN_READER, "in")
        .addParameter(Names.HESSIAN_CLASS, "sent")
        .addStatement("$T message = null", String.class);
    Set<String> internal = new HashSet<>(INTERNAL);
    internal.add("message");
    internal.add("rebuilt");
    List<String> locals = locals(fields.stream().map(SofaRpcExceptions.ExceptionField::name).toList(), internal);
    for (int i = 0; i < fields.size(); i++) {
      SofaRpcExceptions.ExceptionField f = fields.get(i);
      write.addStatement("$L", write(f.type(), "out", CodeBlock.of("value.$L", f.getter()), 0));
      read.addStatement("$T $L = $L", f.type().javaType(), locals.get(i), defaultValue(f.type()));
    }
    read.beginControlFlow("for (int i = 0; i < sent.fieldCount(); i++)")
        .beginControlFlow("switch (sent.fieldName(i))")
        .addStatement("case $S -> message = in.readString()", "detailMessage");
    for (int i = 0; i < fields.size(); i++) {
      read.addStatement("case $S -> $L = $L", fields.get(i).name(), locals.get(i),
          read(fields.get(i).type(), "in", 0, c.simpleName() + "." + fields.get(i).name()));
    }
    read.addStatement("default -> in.skipValue()")
        .endControlFlow()
        .endControlFlow();
    if (form.viaSetters()) {
      read.addStatement("$T rebuilt = new $T(message)", c, c);
      for (int i = 0; i < fields.size(); i++) {
        read.addStatement("rebuilt.$L($L)", fields.get(i).setter(), locals.get(i));
      }
      read.addStatement("return rebuilt");
    } else {
      read.addStatement("return new $T(message$L)", c, locals.isEmpty() ? "" : ", " + String.join(", ", locals));
    }
    List<String> names = new ArrayList<>(List.of("detailMessage"));
    fields.forEach(f -> names.add(f.name()));
    return hessianType(c, names).addMethod(write.build()).addMethod(read.build()).build();
  }

  /** A local variable per name, each suffixed with '_' until it is none of {@code reserved} nor a lambda's. */
  private static List<String> locals(List<String> names, Set<String> reserved) {
    List<String> locals = new ArrayList<>();
    Set<String> used = new HashSet<>(reserved);
    for (String name : names) {
      String local = name;
      while (used.contains(local) || LAMBDA_PARAMETER.matcher(local).matches()) {
        local += "_";
      }
      used.add(local);
      locals.add(local);
    }
    return locals;
  }

  private TypeSpec.Builder hessianType(ClassName c, List<String> fieldNames) {
    String args = fieldNames.stream().map(n -> '"' + n + '"').collect(Collectors.joining(", "));
    return TypeSpec.classBuilder(flatName(c) + "Hessian")
        .addJavadoc("{@link $T} as the SOFARPC side's {@code $L}.\n", c, sofa.remoteName(c))
        .addModifiers(Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL)
        .addSuperinterface(ParameterizedTypeName.get(Names.HESSIAN_TYPE, c))
        .addField(FieldSpec.builder(Names.HESSIAN_CLASS, "CLASS", Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL)
            .initializer("$T.of($S$L)", Names.HESSIAN_CLASS, sofa.remoteName(c), args.isEmpty() ? "" : ", " + args)
            .build())
        .addMethod(MethodSpec.methodBuilder("hessianClass")
            .addAnnotation(Override.class)
            .addModifiers(Modifier.PUBLIC)
            .returns(Names.HESSIAN_CLASS)
            .addStatement("return CLASS")
            .build());
  }

  private static CodeBlock defaultValue(Model.Type type) {
    if (type instanceof Model.ScalarType s && !s.boxed()) {
      return switch (s.scalar()) {
        case BOOLEAN -> CodeBlock.of("false");
        case LONG -> CodeBlock.of("0L");
        case FLOAT -> CodeBlock.of("0f");
        case DOUBLE -> CodeBlock.of("0d");
        case BYTE -> CodeBlock.of("(byte) 0");
        case SHORT -> CodeBlock.of("(short) 0");
        default -> CodeBlock.of("0");
      };
    }
    return CodeBlock.of("null");
  }

  /** The statement (without ';') that writes {@code value} of {@code type} to {@code out}. */
  CodeBlock write(Model.Type type, String out, CodeBlock value, int depth) {
    String o = "o" + (depth + 1);
    if (type instanceof Model.ScalarType s) {
      if (s.boxed()) {
        return CodeBlock.of("$T.writeBox($L, $L)", Names.SOFA_RPC_HESSIAN, out, value);
      }
      switch (s.scalar()) {
        case BOOLEAN:
          return CodeBlock.of("$L.writeBoolean($L)", out, value);
        case LONG:
          return CodeBlock.of("$L.writeLong($L)", out, value);
        case FLOAT:
        case DOUBLE:
          return CodeBlock.of("$L.writeDouble($L)", out, value);
        case CHAR:
          // as sofa-hessian writes a char: a string of that one character
          return CodeBlock.of("$L.writeString($T.valueOf($L))", out, String.class, value);
        default:
          return CodeBlock.of("$L.writeInt($L)", out, value);
      }
    }
    if (type instanceof Model.StringType) {
      return CodeBlock.of("$L.writeString($L)", out, value);
    }
    if (type instanceof Model.BytesType) {
      return CodeBlock.of("$L.writeBytes($L)", out, value);
    }
    if (type instanceof Model.EnumType e) {
      return CodeBlock.of("$L.writeObject($T.$L, $L)", out, owner, constant(e.className()), value);
    }
    if (type instanceof Model.MessageType m) {
      return CodeBlock.of("$L.writeObject($T.$L, $L)", out, owner, constant(m.className()), value);
    }
    if (type instanceof Model.JdkType j) {
      return j.jdk() == Model.Jdk.DATE ? CodeBlock.of("$T.writeDate($L, $L)", Names.SOFA_RPC_JDK_TYPES, out, value)
          : CodeBlock.of("$L.writeObject($T.$L, $L)", out, Names.SOFA_RPC_JDK_TYPES, j.jdk().name(), value);
    }
    if (type instanceof Model.NestedType n) {
      return write(n.inner(), out, value, depth); // no wrapper in Hessian2: the collection itself
    }
    if (type instanceof Model.RepeatedType r && r.array()) {
      if (isChars(r)) {
        return CodeBlock.of("$T.writeChars($L, $L)", Names.SOFA_RPC_HESSIAN, out, value); // as a string
      }
      // typed as sofa-hessian types an array: "[int", "[string", "[java.lang.Integer", "[<its class>"
      return CodeBlock.of("$L.writeList($S, $T.list($L), ($L, e$L) -> $L)", out, arrayType(r.element()),
          Names.ARRAY_VALUES, value, o, depth + 1, write(r.element(), o, CodeBlock.of("e$L", depth + 1), depth + 1));
    }
    if (type instanceof Model.RepeatedType r) {
      // a set as sofa-hessian writes one, typed, in its order (a Java peer reads a LinkedHashSet)
      return CodeBlock.of("$L.writeList($S, $L, ($L, e$L) -> $L)", out, r.set() ? "java.util.LinkedHashSet" : "",
          value, o, depth + 1, write(r.element(), o, CodeBlock.of("e$L", depth + 1), depth + 1));
    }
    if (type instanceof Model.MapType m) {
      return CodeBlock.of("$L.writeMap(\"java.util.LinkedHashMap\", $L, ($L, k$L) -> $L, ($L, v$L) -> $L)", out, value,
          o, depth + 1, write(m.key(), o, CodeBlock.of("k$L", depth + 1), depth + 1),
          o, depth + 1, write(m.value(), o, CodeBlock.of("v$L", depth + 1), depth + 1));
    }
    throw new IllegalArgumentException("no Hessian2 form: " + type); // SofaRpcReader refused it
  }

  /** Whether {@code r} is a {@code char[]}, which sofa-hessian writes as a string. */
  private static boolean isChars(Model.RepeatedType r) {
    return r.array() && r.element() instanceof Model.ScalarType s && s.scalar() == Model.Scalar.CHAR && !s.boxed();
  }

  /** The Hessian type of an array of {@code element}, as sofa-hessian names it. */
  private String arrayType(Model.Type element) {
    if (element instanceof Model.ScalarType s) {
      return "[" + (s.boxed() ? ((ClassName) s.javaType()).canonicalName() : s.scalar().primitive.toString());
    }
    if (element instanceof Model.StringType) {
      return "[string";
    }
    if (element instanceof Model.BytesType) {
      return "[[byte";
    }
    if (element instanceof Model.JdkType j) {
      return j.jdk() == Model.Jdk.DATE ? "[date" : "[" + j.jdk().className.canonicalName();
    }
    if (element instanceof Model.NestedType n) { // an array of arrays, "[[int"; of collections, "[java.util.List"
      if (n.inner() instanceof Model.RepeatedType r) {
        return r.array() ? "[" + arrayType(r.element()) : r.set() ? "[java.util.Set" : "[java.util.List";
      }
      return "[java.util.Map";
    }
    return "[" + sofa.remoteName((ClassName) element.javaType()); // an enum or a record: its SOFARPC class
  }

  /** The expression that reads a value of {@code type} from {@code in}. */
  CodeBlock read(Model.Type type, String in, int depth, String what) {
    String i = "i" + (depth + 1);
    if (type instanceof Model.ScalarType s) {
      Model.Scalar scalar = s.scalar();
      boolean narrowed = scalar == Model.Scalar.BYTE || scalar == Model.Scalar.SHORT || scalar == Model.Scalar.FLOAT
          || scalar == Model.Scalar.CHAR;
      if (s.boxed()) {
        // a byte, a short, a float or a char arrives as an int, a double or a string: checked to fit, naming it
        return narrowed
            ? CodeBlock.of("$T.read$LBox($L, $S)", Names.SOFA_RPC_HESSIAN, Names.capitalize(scalar.primitive.toString()),
                in, what)
            : CodeBlock.of("$T.read$LBox($L)", Names.SOFA_RPC_HESSIAN, Names.capitalize(scalar.primitive.toString()),
                in);
      }
      switch (scalar) {
        case BOOLEAN:
          return CodeBlock.of("$L.readBoolean()", in);
        case LONG:
          return CodeBlock.of("$L.readLong()", in);
        case DOUBLE:
          return CodeBlock.of("$L.readDouble()", in);
        case FLOAT:
          return CodeBlock.of("$T.toFloat($L.readDouble(), $S)", Names.SOFA_RPC_HESSIAN, in, what);
        case BYTE:
          return CodeBlock.of("$T.toByte($L.readInt(), $S)", Names.SOFA_RPC_HESSIAN, in, what);
        case SHORT:
          return CodeBlock.of("$T.toShort($L.readInt(), $S)", Names.SOFA_RPC_HESSIAN, in, what);
        case CHAR:
          return CodeBlock.of("$T.toChar($L.readString(), $S)", Names.SOFA_RPC_HESSIAN, in, what);
        default:
          return CodeBlock.of("$L.readInt()", in);
      }
    }
    if (type instanceof Model.StringType) {
      return CodeBlock.of("$L.readString()", in);
    }
    if (type instanceof Model.BytesType) {
      return CodeBlock.of("$L.readBytes()", in);
    }
    if (type instanceof Model.EnumType e) {
      return CodeBlock.of("$L.readObject($T.$L)", in, owner, constant(e.className()));
    }
    if (type instanceof Model.MessageType m) {
      return CodeBlock.of("$L.readObject($T.$L)", in, owner, constant(m.className()));
    }
    if (type instanceof Model.JdkType j) {
      return j.jdk() == Model.Jdk.DATE ? CodeBlock.of("$T.readDate($L)", Names.SOFA_RPC_JDK_TYPES, in)
          : CodeBlock.of("$L.readObject($T.$L)", in, Names.SOFA_RPC_JDK_TYPES, j.jdk().name());
    }
    if (type instanceof Model.NestedType n) {
      return read(n.inner(), in, depth, what);
    }
    if (type instanceof Model.RepeatedType r) {
      if (isChars(r)) {
        return CodeBlock.of("$T.readChars($L)", Names.SOFA_RPC_HESSIAN, in);
      }
      CodeBlock list = CodeBlock.of("$L.readList($L -> $L)", in, i, read(r.element(), i, depth + 1,
          what + "'s element"));
      return r.set() ? CodeBlock.of("$T.toSet($L)", Names.SOFA_RPC_HESSIAN, list)
          : r.array() ? ArrayCode.fromList(r, list) : list;
    }
    if (type instanceof Model.MapType m) {
      return CodeBlock.of("$L.readMap($L -> $L, $L -> $L)", in, i, read(m.key(), i, depth + 1, what + "'s key"), i,
          read(m.value(), i, depth + 1, what + "'s value"));
    }
    throw new IllegalArgumentException("no Hessian2 form: " + type); // SofaRpcReader refused it
  }
}
