package io.boltgen.processor;

import com.google.auto.service.AutoService;
import com.palantir.javapoet.ClassName;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.Processor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.TypeElement;
import javax.tools.FileObject;
import javax.tools.StandardLocation;

/**
 * The aggregating half of the processor: lists the {@code GeneratedService} provider of every
 * {@code @BoltService} interface of the compilation in
 * {@code META-INF/services/io.boltgen.runtime.service.GeneratedService}, sorted, written once in the last
 * round with every interface as an originating element. Kept apart from {@link BoltProcessor} so that
 * Gradle can treat the per-service generation as isolating.
 */
@AutoService(Processor.class)
public final class BoltRegistryProcessor extends AbstractProcessor {

  /** Provider binary name → its interface. */
  private final Map<String, TypeElement> providers = new TreeMap<>();

  /** Called by the compiler. */
  public BoltRegistryProcessor() {}

  @Override
  public Set<String> getSupportedAnnotationTypes() {
    return Set.of(Names.BOLT_SERVICE);
  }

  @Override
  public SourceVersion getSupportedSourceVersion() {
    return SourceVersion.latestSupported();
  }

  @Override
  public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
    TypeElement annotation = processingEnv.getElementUtils().getTypeElement(Names.BOLT_SERVICE);
    if (!round.processingOver()) {
      if (annotation != null) {
        for (Element e : round.getElementsAnnotatedWith(annotation)) {
          if (e.getKind() == ElementKind.INTERFACE) {
            TypeElement type = (TypeElement) e;
            ClassName provider = Names.Generated.of(ClassName.get(type)).provider();
            providers.put(provider.reflectionName(), type);
          }
        }
      }
      return false;
    }
    if (providers.isEmpty()) {
      return false;
    }
    try {
      FileObject file = processingEnv.getFiler().createResource(StandardLocation.CLASS_OUTPUT, "",
          Names.SERVICES_FILE, providers.values().toArray(new Element[0]));
      try (Writer out = new java.io.OutputStreamWriter(file.openOutputStream(), StandardCharsets.UTF_8)) {
        for (String provider : providers.keySet()) {
          out.write(provider);
          out.write('\n');
        }
      }
    } catch (IOException | RuntimeException e) {
      new Report(processingEnv.getMessager()).error((Model.Site) null, "InternalError",
          "internal error in BoltProcessor; please report: could not write " + Names.SERVICES_FILE + ": " + e);
    }
    return false;
  }
}
