package io.boltgen.processor;

import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.Element;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.TypeElement;

/**
 * Where a type being compiled is declared, to catch the types generated code could only use with a javac
 * warning: a top-level type declared in a file named after another type (javac's "auxiliary class"). Needs
 * javac's tree API; under another compiler, or a processing environment wrapped by a build tool, it sees
 * nothing and reports nothing.
 */
final class SourceFiles {

  private final Trees trees;

  SourceFiles(ProcessingEnvironment env) {
    this.trees = trees(env);
  }

  /**
   * javac's tree API for {@code env}, or {@code null} under another compiler or a processing environment a
   * build tool wrapped.
   */
  static Trees trees(ProcessingEnvironment env) {
    try {
      return Trees.instance(env);
    } catch (IllegalArgumentException | LinkageError e) {
      return null;
    }
  }

  /**
   * Why code generated in another file cannot use {@code e} without a warning, or {@code null}: {@code e}
   * (or the type it is nested in) is an auxiliary class.
   */
  String auxiliaryProblem(TypeElement e, String kind) {
    TypeElement top = e;
    while (!(top.getEnclosingElement() instanceof PackageElement)) {
      Element outer = top.getEnclosingElement();
      if (!(outer instanceof TypeElement t)) {
        return null;
      }
      top = t;
    }
    if (trees == null || top.getModifiers().contains(Modifier.PUBLIC)) {
      return null; // a public top-level type is always in a file of its own name
    }
    TreePath path = trees.getPath(top);
    if (path == null) {
      return null; // read from a class file
    }
    String file = path.getCompilationUnit().getSourceFile().toUri().getPath();
    String fileName = file == null ? "" : file.substring(file.lastIndexOf('/') + 1);
    String expected = top.getSimpleName() + ".java";
    if (fileName.isEmpty() || fileName.equals(expected)) {
      return null;
    }
    String what = top == e ? kind + " " + e.getSimpleName() : kind + " " + e.getSimpleName() + " (nested in "
        + top.getSimpleName() + ")";
    return "the " + what + " is declared in " + fileName + ", a file named after another type: code generated in"
        + " other files could only use it with javac's warning \"auxiliary class " + top.getSimpleName() + " in "
        + fileName + " should not be accessed from outside its own source file\"; move " + top.getSimpleName()
        + " to " + expected + ", or nest it in a type of " + fileName;
  }
}
