package io.boltgen.processor;

import com.palantir.javapoet.ClassName;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import javax.annotation.processing.Filer;
import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;
import javax.tools.FileObject;
import javax.tools.StandardLocation;

/**
 * The {@code ServiceLoader} registration of a compilation: the {@code GeneratedService} provider of every
 * {@code @BoltService} interface generated, listed sorted in
 * {@code META-INF/services/io.boltgen.runtime.service.GeneratedService}, written once in the last round with
 * every interface as an originating element (the aggregating output of the processor).
 */
final class ServicesFile {

  /** Provider binary name → its interface. */
  private final Map<String, TypeElement> providers = new TreeMap<>();

  /** Lists the provider generated for {@code iface}. */
  void add(TypeElement iface) {
    providers.put(Names.Generated.of(ClassName.get(iface)).provider().reflectionName(), iface);
  }

  /** Writes the file, unless no provider was generated. */
  void write(Filer filer) throws IOException {
    if (providers.isEmpty()) {
      return;
    }
    FileObject file = filer.createResource(StandardLocation.CLASS_OUTPUT, "", Names.SERVICES_FILE,
        providers.values().toArray(new Element[0]));
    try (Writer out = new OutputStreamWriter(file.openOutputStream(), StandardCharsets.UTF_8)) {
      for (String provider : providers.keySet()) {
        out.write(provider);
        out.write('\n');
      }
    }
  }
}
