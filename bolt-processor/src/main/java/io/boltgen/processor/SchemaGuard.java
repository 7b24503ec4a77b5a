package io.boltgen.processor;

import io.boltgen.processor.Model.Message;
import io.boltgen.processor.Model.Method;
import io.boltgen.processor.Model.Service;
import io.boltgen.processor.Model.Site;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.tools.Diagnostic;

/**
 * The schema evolution guard: compares the {@code .proto} of a service with the baseline committed
 * under {@code -Aboltgen.baseline=<dir>} ({@code <dir>/<interface canonical name>.proto}) and reports
 * every wire-breaking change ({@link SchemaDiff}) as an error on the Java element it concerns. With
 * {@code -Aboltgen.baseline.update=true} it records the current schema as the baseline instead. Without
 * the baseline option it does nothing. It only ever writes the baseline in update mode.
 */
final class SchemaGuard {

  /** The directory holding the baselines; the guard is off without it. */
  static final String BASELINE = "boltgen.baseline";
  /** {@code true}: record the current schemas as the baselines instead of checking them. */
  static final String UPDATE = "boltgen.baseline.update";
  static final Set<String> OPTIONS = Set.of(BASELINE, UPDATE);
  static final String UPDATE_COMMAND = "mvn clean compile -Dboltgen.baseline.update=true (javac: "
      + "-Aboltgen.baseline.update=true)";

  private final ProcessingEnvironment env;
  private final Report report;

  SchemaGuard(ProcessingEnvironment env, Report report) {
    this.env = env;
    this.report = report;
  }

  /**
   * Checks (or, in update mode, records) the schema {@code proto} of {@code model}. Returns false when it
   * reported an error.
   */
  boolean check(Service model, String proto) {
    String dir = env.getOptions().get(BASELINE);
    boolean update = "true".equals(String.valueOf(env.getOptions().get(UPDATE)).strip().toLowerCase(Locale.ROOT));
    if (dir == null || dir.isBlank()) {
      if (update) {
        report.error(model.element(), "BaselineOptionMissing", "-A" + UPDATE + "=true records the baselines in the"
            + " directory given by -A" + BASELINE + "=<dir>, which is not set");
        return false;
      }
      return true;
    }
    Path file;
    try {
      file = Path.of(dir.strip()).resolve(model.iface().canonicalName() + ".proto");
    } catch (InvalidPathException e) {
      report.error(model.element(), "BaselineUnreadable", "-A" + BASELINE + "=" + dir + " is not a path: "
          + e.getMessage());
      return false;
    }
    String shown = display(file);
    try {
      if (update) {
        if (!Files.isRegularFile(file) || !Files.readString(file, StandardCharsets.UTF_8).equals(proto)) {
          Files.createDirectories(file.toAbsolutePath().getParent());
          Files.writeString(file, proto, StandardCharsets.UTF_8);
          note(model, "BaselineUpdated", "recorded the schema of " + model.iface().canonicalName() + " as the baseline "
              + shown + "; commit it");
        }
        return true;
      }
      if (!Files.exists(file)) {
        note(model, "BaselineMissing", "no baseline " + shown + " for " + model.iface().canonicalName()
            + ": its wire schema is not checked until you record one with " + UPDATE_COMMAND);
        return true;
      }
      String text = Files.readString(file, StandardCharsets.UTF_8);
      if (text.equals(proto)) {
        return true;
      }
      ProtoSchema baseline;
      try {
        baseline = ProtoSchema.parse(text);
      } catch (ProtoParser.ParseException e) {
        report.error(model.element(), "BaselineUnreadable", "cannot parse the baseline " + shown + " ("
            + e.getMessage() + "); restore it from version control or record it again with " + UPDATE_COMMAND);
        return false;
      }
      List<SchemaDiff.Break> breaks = new SchemaDiff(baseline, ProtoSchema.parse(proto), shown).breaks();
      for (SchemaDiff.Break b : breaks) {
        report.error(site(model, b.target()), b.tag(), b.message());
      }
      return breaks.isEmpty();
    } catch (IOException e) {
      report.error(model.element(), "BaselineUnreadable", "cannot " + (update ? "write" : "read") + " the baseline "
          + shown + ": " + e);
      return false;
    }
  }

  private void note(Service model, String tag, String message) {
    env.getMessager().printMessage(Diagnostic.Kind.NOTE, "[Bolt/" + tag + "] " + message, model.element());
  }

  /** The Java element a break is about, as narrow as the model knows it. */
  static Site site(Service model, SchemaDiff.Target t) {
    Site service = Site.of(model.element());
    switch (t.kind()) {
      case SERVICE_NAME:
        return model.nameSite();
      case SERVICE_VERSION:
        return model.versionSite();
      case METHOD:
        return model.methods().stream().filter(m -> m.wireMethodName().equals(t.method())).findFirst()
            .map(m -> Site.of(m.element())).orElse(service);
      case MESSAGE:
      case FIELD:
        Message message = message(model, t.type());
        if (message == null) {
          return service;
        }
        return message.fields().stream().filter(f -> f.name().equals(t.member())).findFirst()
            .map(Model.Field::site).orElse(message.site());
      case ENUM:
      case ENUM_VALUE:
        Model.Enumeration e = model.enums().stream().filter(x -> x.protoName().equals(t.type())).findFirst().orElse(null);
        if (e == null) {
          return service;
        }
        String prefix = Names.upperSnake(e.protoName()) + "_";
        for (Element constant : e.site().element().getEnclosedElements()) {
          if (constant.getKind() == ElementKind.ENUM_CONSTANT
              && (prefix + constant.getSimpleName()).equals(t.member())) {
            return Site.of(constant);
          }
        }
        return e.site();
      default:
        return service;
    }
  }

  private static Message message(Service model, String protoName) {
    List<Message> all = new ArrayList<>(model.messages());
    for (Method m : model.methods()) {
      all.add(m.request());
      all.add(m.response());
    }
    return all.stream().filter(x -> x.protoName().equals(protoName)).findFirst().orElse(null);
  }

  /** The baseline's path relative to the working directory when it is below it (as Maven's basedir usually is). */
  private static String display(Path file) {
    Path abs = file.toAbsolutePath().normalize();
    Path cwd = Path.of("").toAbsolutePath();
    return abs.startsWith(cwd) && !abs.equals(cwd) ? cwd.relativize(abs).toString() : abs.toString();
  }
}
