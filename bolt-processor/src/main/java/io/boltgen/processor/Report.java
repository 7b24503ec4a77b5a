package io.boltgen.processor;

import java.io.PrintWriter;
import java.io.StringWriter;
import javax.annotation.processing.Messager;
import javax.lang.model.element.Element;
import javax.tools.Diagnostic;

/**
 * Diagnostics tied to elements. Every message starts with a greppable tag, {@code [Bolt/Xxx]}; errors are
 * counted so that the processor abandons only the type at hand and keeps going with the others.
 */
final class Report {

  private final Messager messager;
  private int errors;

  Report(Messager messager) {
    this.messager = messager;
  }

  void error(Model.Site site, String tag, String message) {
    errors++;
    print(site, tag, message);
  }

  void error(Element element, String tag, String message) {
    error(Model.Site.of(element), tag, message);
  }

  /** Reports an unexpected exception on {@code element}, with its stack trace. */
  void internalError(Element element, Throwable e) {
    StringWriter stack = new StringWriter();
    e.printStackTrace(new PrintWriter(stack));
    error(element, "InternalError", "internal error in BoltProcessor; please report: " + stack);
  }

  /** The number of errors reported so far. */
  int errorCount() {
    return errors;
  }

  private void print(Model.Site site, String tag, String message) {
    Diagnostic.Kind kind = Diagnostic.Kind.ERROR;
    String text = "[Bolt/" + tag + "] " + message;
    if (site == null || site.element() == null) {
      messager.printMessage(kind, text);
    } else if (site.mirror() == null || !site.element().getAnnotationMirrors().contains(site.mirror())) {
      messager.printMessage(kind, text, site.element());
    } else if (site.value() == null) {
      messager.printMessage(kind, text, site.element(), site.mirror());
    } else {
      messager.printMessage(kind, text, site.element(), site.mirror(), site.value());
    }
  }
}
