package io.boltgen.processor;

import com.sun.source.tree.BinaryTree;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.LiteralTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewArrayTree;
import com.sun.source.tree.ReturnTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.ElementFilter;
import javax.tools.FileObject;
import javax.tools.StandardLocation;

/**
 * The proto identity (full name and {@code .proto} file) of a protobuf-java generated message class, so
 * that the {@code .proto} can type its fields and import its file. protoc's Java output keeps both in the
 * serialized {@code FileDescriptorProto} of the outer class ({@code descriptorData}) and points every
 * message's {@code getDescriptor()} at a field named after the message's full name. Two ways to read them:
 * <ul>
 *   <li>a class compiled in this compilation (protoc's sources beside the service): from its source, through
 *       javac's tree API, without running anything;</li>
 *   <li>a class from the class path (a dependency's jar): by loading it, with protobuf-java from the same
 *       class path, in a class loader of its own, and asking its descriptor.</li>
 * </ul>
 * Anything unexpected means "unknown": the field is then declared {@code bytes}, wire-identical.
 */
final class ProtoDescriptors {

  /** A message's full proto name (no leading dot) and the name of its {@code .proto} file. */
  record Identity(String fullName, String file) {}

  private final ProcessingEnvironment env;
  private final Trees trees;
  private final Map<String, Identity> known = new HashMap<>();

  ProtoDescriptors(ProcessingEnvironment env) {
    this.env = env;
    this.trees = SourceFiles.trees(env);
  }

  /** The identity of the generated message {@code message}, or {@code null} when it cannot be known. */
  Identity of(TypeElement message) {
    String key = message.getQualifiedName().toString();
    if (known.containsKey(key)) {
      return known.get(key);
    }
    Identity identity;
    try {
      identity = fromSource(message);
      if (identity == null) {
        identity = fromClassPath(message);
      }
    } catch (RuntimeException | LinkageError | ReflectiveOperationException | java.io.IOException e) {
      identity = null;
    }
    known.put(key, identity);
    return identity;
  }

  // ------------------------------------------------------------------ from source

  private Identity fromSource(TypeElement message) {
    if (trees == null) {
      return null;
    }
    ExecutableElement getDescriptor = ElementFilter.methodsIn(message.getEnclosedElements()).stream()
        .filter(m -> m.getSimpleName().contentEquals("getDescriptor") && m.getParameters().isEmpty()
            && m.getModifiers().contains(Modifier.STATIC))
        .findFirst().orElse(null);
    TreePath method = getDescriptor == null ? null : trees.getPath(getDescriptor);
    if (method == null) {
      return null; // not compiled from source here
    }
    // return com.shop.OrderProto.internal_static_shop_v1_Order_descriptor;
    List<? extends StatementTree> body = ((MethodTree) method.getLeaf()).getBody().getStatements();
    if (body.size() != 1 || !(body.get(0) instanceof ReturnTree ret)
        || !(ret.getExpression() instanceof MemberSelectTree select)) {
      return null;
    }
    String field = select.getIdentifier().toString();
    Element outer = trees.getElement(new TreePath(new TreePath(method, ret), select.getExpression()));
    ClassTree outerTree = outer instanceof TypeElement outerType ? trees.getTree(outerType) : null;
    byte[] descriptor = outerTree == null ? null : descriptorData(outerTree);
    if (descriptor == null) {
      return null;
    }
    FileDescriptorReader.File file = FileDescriptorReader.read(descriptor);
    for (String fullName : file.messages()) {
      if (field.equals("internal_static_" + fullName.replace('.', '_') + "_descriptor")) {
        return new Identity(fullName, file.name());
      }
    }
    return null;
  }

  /** The bytes of the {@code String[] descriptorData = {...}} in the outer class's static initializer. */
  private static byte[] descriptorData(ClassTree outer) {
    for (Tree member : outer.getMembers()) {
      if (member instanceof BlockTree block && block.isStatic()) {
        for (StatementTree s : block.getStatements()) {
          if (s instanceof VariableTree v && v.getName().contentEquals("descriptorData")
              && v.getInitializer() instanceof NewArrayTree array) {
            StringBuilder all = new StringBuilder();
            for (ExpressionTree part : array.getInitializers()) {
              String text = constant(part);
              if (text == null) {
                return null;
              }
              all.append(text);
            }
            return all.toString().getBytes(StandardCharsets.ISO_8859_1);
          }
        }
      }
    }
    return null;
  }

  /** A string literal, or a concatenation of them, as protoc writes them. */
  private static String constant(ExpressionTree e) {
    if (e instanceof LiteralTree literal && literal.getValue() instanceof String s) {
      return s;
    }
    if (e instanceof BinaryTree plus && plus.getKind() == Tree.Kind.PLUS) {
      String left = constant(plus.getLeftOperand());
      String right = constant(plus.getRightOperand());
      return left == null || right == null ? null : left + right;
    }
    return null;
  }

  // ------------------------------------------------------------------ from the class path

  private Identity fromClassPath(TypeElement message) throws ReflectiveOperationException, java.io.IOException {
    String binaryName = env.getElementUtils().getBinaryName(message).toString();
    URL messageRoot = root(binaryName);
    URL protobufRoot = root("com.google.protobuf.Descriptors");
    if (messageRoot == null || protobufRoot == null) {
      return null;
    }
    List<URL> roots = new ArrayList<>(List.of(messageRoot));
    if (!protobufRoot.equals(messageRoot)) {
      roots.add(protobufRoot);
    }
    try (URLClassLoader loader = new URLClassLoader(roots.toArray(new URL[0]), ClassLoader.getPlatformClassLoader())) {
      Class<?> type = Class.forName(binaryName, true, loader);
      Object descriptor = type.getMethod("getDescriptor").invoke(null);
      String fullName = (String) descriptor.getClass().getMethod("getFullName").invoke(descriptor);
      Object file = descriptor.getClass().getMethod("getFile").invoke(descriptor);
      String fileName = (String) file.getClass().getMethod("getName").invoke(file);
      return new Identity(fullName, fileName);
    }
  }

  /** The class-path root (a jar or a directory) holding the class {@code binaryName}, or {@code null}. */
  private URL root(String binaryName) throws java.io.IOException {
    int dot = binaryName.lastIndexOf('.');
    String pkg = dot < 0 ? "" : binaryName.substring(0, dot);
    String file = binaryName.substring(dot + 1) + ".class";
    FileObject found;
    try {
      found = env.getFiler().getResource(StandardLocation.CLASS_PATH, pkg, file);
    } catch (IllegalArgumentException | java.io.IOException e) {
      return null;
    }
    URI uri = found.toUri();
    String s = uri.toString();
    if (s.startsWith("jar:")) {
      return new URL(s.substring(4, s.indexOf("!/")));
    }
    String relative = binaryName.replace('.', '/') + ".class";
    if ("file".equals(uri.getScheme()) && s.endsWith(relative)) {
      return new URL(s.substring(0, s.length() - relative.length()));
    }
    return null;
  }
}
