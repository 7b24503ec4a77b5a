package io.boltgen.processor;

import com.google.auto.service.AutoService;
import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.JavaFile;
import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.ProcessingEnvironment;
import javax.annotation.processing.Processor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;
import javax.tools.FileObject;
import javax.tools.StandardLocation;

/**
 * The boltgen annotation processor: turns every {@code @BoltService} interface into a holder
 * ({@code XxxBolt}: descriptors, method ids, factories), a client stub, a server skeleton, protobuf
 * wire-format codecs, a {@code GeneratedService} provider and a {@code .proto} description; with
 * jakarta.inject on the class path also a {@code jakarta.inject.Provider} of clients, and with bolt-json the
 * proto3 JSON codecs that HTTP serves.
 *
 * <p>A pipeline: {@link ModelReader} (the only user of {@code Elements}/{@code Types}) builds an immutable
 * {@link Model}, {@link Validator} checks it, pure writers turn it into {@link JavaFile}s, and only this
 * class touches the {@code Filer}, with the interface as the originating element of everything generated
 * for it; the {@code ServiceLoader} registration ({@link ServicesFile}) lists every service, which makes the
 * processor aggregating for Gradle.
 *
 * <p>It claims the boltgen annotations (javac's {@code -Xlint:processing} then has nothing to say about
 * them). Errors are reported on their exact element with a {@code [Bolt/Xxx]} tag, one per cause; an error
 * abandons only the interface at hand. An interface that references a type not generated yet is deferred to
 * the next round and reported only if it is still unresolved in the last one.
 */
@AutoService(Processor.class)
public final class BoltProcessor extends AbstractProcessor {

  /** Interfaces deferred to the next round: they reference a type not generated yet. */
  private final Set<String> deferred = new LinkedHashSet<>();
  /** Services generated so far: "name:version" → interface, to find duplicates across rounds. */
  private final Map<String, TypeElement> services = new HashMap<>();
  /** Qualified names of the classes this processor generated. */
  private final Set<String> generated = new HashSet<>();
  /**
   * Top-level types written by the user in this compilation. A generated name clashes only with one of
   * these: a class file of an earlier build of the same interface (on the class path of an incremental
   * build) is not a clash.
   */
  private final Set<String> sourceTypes = new HashSet<>();
  /** The providers generated so far, for the {@code ServiceLoader} file written in the last round. */
  private final ServicesFile servicesFile = new ServicesFile();
  /** What the validator has checked already, so that a record shared by services is reported once. */
  private final Set<String> checkedOnce = new HashSet<>();
  /** Where types are declared (set in {@link #init}). */
  private SourceFiles sourceFiles;
  /** The proto identities of protobuf-java messages met so far (set in {@link #init}). */
  private ProtoDescriptors protoDescriptors;
  /** Whether the missing runtime has been reported (once per compilation). */
  private boolean runtimeMissingReported;
  /** Whether jakarta.inject is on the class path: then client providers are generated (set when first asked). */
  private Boolean injectAvailable;
  /** Whether bolt-json is on the class path: then JSON codecs are generated (set when first asked). */
  private Boolean jsonAvailable;

  /** Called by the compiler. */
  public BoltProcessor() {}

  @Override
  public synchronized void init(ProcessingEnvironment env) {
    super.init(env);
    sourceFiles = new SourceFiles(env);
    protoDescriptors = new ProtoDescriptors(env, sourceTypes);
  }

  @Override
  public Set<String> getSupportedAnnotationTypes() {
    return Names.CLAIMED;
  }

  /**
   * {@code -Aboltgen.inject=false} turns the jakarta.inject providers off in a module that has jakarta.inject on
   * its class path (say, transitively) but wants none.
   */
  static final String INJECT_OPTION = "boltgen.inject";

  /**
   * {@code -Aboltgen.json=false} leaves the JSON codecs out though bolt-json is on the class path;
   * {@code -Aboltgen.json=true} requires them, and so bolt-json. Without the option they are generated when
   * bolt-json is on the class path.
   */
  static final String JSON_OPTION = "boltgen.json";

  @Override
  public Set<String> getSupportedOptions() {
    Set<String> options = new HashSet<>(SchemaGuard.OPTIONS);
    options.add(INJECT_OPTION);
    options.add(JSON_OPTION);
    return options;
  }

  @Override
  public SourceVersion getSupportedSourceVersion() {
    return SourceVersion.latestSupported();
  }

  @Override
  @SuppressWarnings("DoNotClaimAnnotations") // claims only boltgen's own annotations: see the class javadoc
  public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
    Report report = new Report(processingEnv.getMessager());
    for (Element root : round.getRootElements()) {
      if (root instanceof TypeElement type) {
        sourceTypes.add(type.getQualifiedName().toString());
      }
    }
    List<TypeElement> todo = new ArrayList<>();
    Set<String> previouslyDeferred = new LinkedHashSet<>(deferred);
    deferred.clear();
    for (String name : previouslyDeferred) {
      TypeElement type = processingEnv.getElementUtils().getTypeElement(name);
      if (type != null) {
        todo.add(type);
      }
    }
    TypeElement annotation = processingEnv.getElementUtils().getTypeElement(Names.BOLT_SERVICE);
    if (annotation != null) {
      for (Element e : round.getElementsAnnotatedWith(annotation)) {
        if (e instanceof TypeElement type && !previouslyDeferred.contains(type.getQualifiedName().toString())) {
          todo.add(type);
        }
      }
    }
    if (!todo.isEmpty() && !runtimeAvailable(todo.get(0), report)) {
      return true;
    }
    Map<String, Boolean> checkedTypes = new HashMap<>();
    for (TypeElement type : todo) {
      try {
        process(type, report, checkedTypes);
      } catch (ModelReader.Unresolved e) {
        if (round.processingOver()) {
          report.error(type, "UnresolvedType", "could not generate the Bolt service " + type.getSimpleName()
              + ": the type " + e.getMessage() + " could not be resolved");
        } else {
          deferred.add(type.getQualifiedName().toString());
        }
      } catch (RuntimeException | IOException e) {
        report.internalError(type, e);
      }
    }
    if (round.processingOver()) {
      try {
        servicesFile.write(processingEnv.getFiler());
      } catch (IOException | RuntimeException e) {
        report.error((Model.Site) null, "InternalError", "internal error in BoltProcessor; please report: could not"
            + " write " + Names.SERVICES_FILE + ": " + e);
      }
    }
    return true;
  }

  /**
   * Whether the runtime the generated code calls is on the class path; reports its absence once, on
   * {@code first}: every interface would fail for the same reason.
   */
  private boolean runtimeAvailable(TypeElement first, Report report) {
    if (processingEnv.getElementUtils().getTypeElement(Names.BOLT_CHANNEL.canonicalName()) != null) {
      return true;
    }
    if (!runtimeMissingReported) {
      runtimeMissingReported = true;
      report.error(first, "RuntimeMissing", "the code generated for @BoltService " + first.getSimpleName()
          + " calls io.boltgen:bolt-runtime, which is not on this module's class path (io.boltgen.runtime is"
          + " missing): add the dependency io.boltgen:bolt-runtime to the module that declares the interface; its"
          + " jar then carries the generated client and server code for every module that depends on it");
    }
    return false;
  }

  /**
   * Whether {@code jakarta.inject} ({@code Provider}, {@code Inject}, {@code Named}) is on the class path of
   * the compilation and {@code -Aboltgen.inject=false} is not set: then every service also gets a
   * {@code XxxBoltClientProvider}. Asked of the class path, so that adding the dependency is all it takes (and a
   * module without it generates nothing that would not compile).
   *
   * <p>The processor does not claim {@code jakarta.inject.Inject}, which the providers carry: a claim would hide
   * it from DI processors declared after this one (Dagger). javac's {@code -Xlint:processing} therefore reports
   * it as unclaimed, as it does for every {@code @Inject} in a compilation that runs a processor.
   */
  private boolean injectAvailable() {
    if (injectAvailable == null) {
      boolean off = "false".equals(String.valueOf(processingEnv.getOptions().get(INJECT_OPTION)).strip()
          .toLowerCase(Locale.ROOT));
      injectAvailable = !off && Stream.of(Names.INJECT_PROVIDER, Names.INJECT_INJECT, Names.INJECT_NAMED)
          .allMatch(name -> processingEnv.getElementUtils().getTypeElement(name.canonicalName()) != null);
    }
    return injectAvailable;
  }

  /**
   * Whether {@code type}'s JSON codecs are generated: when bolt-json ({@code io.boltgen.json}) is on the class
   * path, unless {@code -Aboltgen.json=false}. With {@code -Aboltgen.json=true} and bolt-json missing, an error.
   */
  private boolean jsonWanted(TypeElement type, Report report) {
    String option = String.valueOf(processingEnv.getOptions().get(JSON_OPTION)).strip().toLowerCase(Locale.ROOT);
    if (jsonAvailable == null) {
      jsonAvailable = processingEnv.getElementUtils().getTypeElement(Names.JSON_FORMS.canonicalName()) != null;
    }
    if (!jsonAvailable && "true".equals(option)) {
      report.error(type, "JsonRuntimeMissing", "-Aboltgen.json=true asks for the JSON codecs of @BoltService "
          + type.getSimpleName() + ", which call io.boltgen:bolt-json, not on this module's class path (io.boltgen.json"
          + " is missing): add the dependency io.boltgen:bolt-json (io.boltgen:bolt-http brings it), or drop the"
          + " option");
    }
    return jsonAvailable && !"false".equals(option);
  }

  private void process(TypeElement type, Report report, Map<String, Boolean> checkedTypes) throws IOException {
    ModelReader reader = new ModelReader(processingEnv.getElementUtils(), processingEnv.getTypeUtils(), report,
        checkedTypes, sourceFiles, protoDescriptors);
    Model.Service model = reader.read(type);
    if (model == null) {
      return;
    }
    model = new Validator(report, checkedOnce).validate(model);
    if (model == null || !model.complete()) {
      return; // the reasons are reported
    }
    String key = model.serviceName() + ":" + model.version();
    TypeElement first = services.putIfAbsent(key, type);
    if (first != null && !first.getQualifiedName().contentEquals(type.getQualifiedName())) {
      report.error(model.nameSite(), "DuplicateService", "the service " + key + " is also declared by "
          + first.getQualifiedName() + "; give one of them another name or version");
      return;
    }
    Names.Generated names = Names.Generated.of(model.iface());
    for (ClassName name : names.all()) {
      if (!generated.contains(name.canonicalName()) && sourceTypes.contains(name.canonicalName())) {
        String reserved = name.equals(names.clientProvider()) && !injectAvailable()
            ? " (the name is reserved for the jakarta.inject provider generated when jakarta.inject is on the class"
                + " path)" : "";
        report.error(type, "GeneratedNameClash", "cannot generate " + name.canonicalName()
            + " for @BoltService " + type.getSimpleName() + ": a type of that name already exists" + reserved
            + "; rename it or the interface");
        return;
      }
    }
    int errorsBefore = report.errorCount();
    SofaRpcModel sofa = new SofaRpcReader(processingEnv.getElementUtils(), processingEnv.getTypeUtils(), report).read(type, model);
    if (report.errorCount() != errorsBefore) {
      return; // the reasons are reported
    }
    boolean json = jsonWanted(type, report);
    if (report.errorCount() != errorsBefore) {
      return; // the reason is reported
    }
    List<JavaFile> files = new ArrayList<>(List.of(new HolderWriter(model, sofa, json).write(),
        new StubWriter(model).write(), new SkeletonWriter(model).write(), new CodecWriter(model).write(),
        new ProviderWriter(model).write()));
    if (json) {
      files.add(new JsonCodecWriter(model).write());
    }
    if (injectAvailable()) {
      files.add(new ClientProviderWriter(model).write());
    }
    if (sofa != null) {
      files.add(new SofaRpcWriter(model, sofa).write());
    }
    String proto = new ProtoFileWriter(model).write();
    new SchemaGuard(processingEnv, report).check(model, proto);
    for (JavaFile file : files) {
      file.writeTo(processingEnv.getFiler());
      generated.add(file.packageName().isEmpty() ? file.typeSpec().name()
          : file.packageName() + "." + file.typeSpec().name());
    }
    FileObject resource = processingEnv.getFiler()
        .createResource(StandardLocation.CLASS_OUTPUT, "", Names.protoFile(model.iface()), type);
    try (Writer out = resource.openWriter()) {
      out.write(proto);
    }
    FileObject descriptors = processingEnv.getFiler()
        .createResource(StandardLocation.CLASS_OUTPUT, "", Names.descriptorSetFile(model.iface()), type);
    try (OutputStream out = descriptors.openOutputStream()) {
      out.write(DescriptorSetWriter.forService(Names.protoFile(model.iface()), proto, protoDescriptors));
    }
    FileObject openApi = processingEnv.getFiler()
        .createResource(StandardLocation.CLASS_OUTPUT, "", OpenApiWriter.fileName(model.iface()), type);
    try (Writer out = openApi.openWriter()) {
      out.write(new OpenApiWriter(model).write());
    }
    servicesFile.add(type);
  }
}
