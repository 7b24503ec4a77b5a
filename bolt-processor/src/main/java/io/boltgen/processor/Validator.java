package io.boltgen.processor;

import io.boltgen.processor.Model.Field;
import io.boltgen.processor.Model.Message;
import io.boltgen.processor.Model.Method;
import io.boltgen.processor.Model.Service;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The rules that work on the model: names, versions, timeouts, unique method names, names
 * that clash with the stub, field numbers and message names. Every problem is reported on
 * its exact element; validation goes on after an error so that one compile shows every problem.
 * Pure: no {@code Elements}, no {@code Types}.
 */
final class Validator {

  static final Pattern SERVICE_NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_-]*(\\.[A-Za-z][A-Za-z0-9_-]*)*");
  static final Pattern VERSION = Pattern.compile("[0-9]+(\\.[0-9]+)*");
  static final Pattern METHOD_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  static final int MAX_FIELD = (1 << 29) - 1;

  private final Report report;
  /**
   * Records and name clashes already checked by an earlier service of the compilation: a record shared by
   * services is reported once.
   */
  private final Set<String> checkedOnce;

  Validator(Report report, Set<String> checkedOnce) {
    this.report = report;
    this.checkedOnce = checkedOnce;
  }

  /** Checks {@code service} and returns it, or {@code null} if it has errors. */
  Service validate(Service service) {
    int before = report.errorCount();
    if (service.serviceName().isEmpty() || !SERVICE_NAME.matcher(service.serviceName()).matches()) {
      report.error(service.nameSite(), "InvalidServiceName", "invalid service name \"" + service.serviceName()
          + "\": letters, digits, '.', '_' and '-', each dot-separated part starting with a letter");
    }
    if (!VERSION.matcher(service.version()).matches()) {
      report.error(service.versionSite(), "InvalidVersion", "invalid service version \"" + service.version()
          + "\": digits separated by dots, for example \"1.0\"");
    }
    if (service.timeoutMillis() <= 0 || service.timeoutMillis() > Integer.MAX_VALUE) {
      report.error(service.timeoutSite(), "InvalidTimeout", "timeoutMillis must be 1.." + Integer.MAX_VALUE
          + " (a call never waits forever), not " + service.timeoutMillis());
    }
    Map<String, Method> byName = new HashMap<>();
    Map<String, Method> byConstant = new HashMap<>();
    for (Method m : service.methods()) {
      if (!METHOD_NAME.matcher(m.wireMethodName()).matches()) {
        report.error(m.nameSite(), "InvalidMethodName", "invalid method name \"" + m.wireMethodName()
            + "\" on the wire: letters, digits and '_', not starting with a digit");
      }
      Method same = byName.putIfAbsent(m.wireMethodName(), m);
      if (same != null) {
        boolean overload = same.javaName().equals(m.javaName());
        report.error(m.nameSite(), "DuplicateMethodName", "RPC methods are identified by name, and \""
            + m.wireMethodName() + "\" is also the name of " + describe(same) + (overload
                ? ": overloads need distinct names on the wire; set @BoltMethod(name = \"...\") on one of them"
                : "; rename one of them or set @BoltMethod(name)"));
      } else {
        // a clash of the derived constant only matters between distinct names
        Method sameConstant = byConstant.putIfAbsent(HolderWriter.descriptorName(m), m);
        if (sameConstant != null) {
          report.error(m.nameSite(), "GeneratedNameClash", "the method names \"" + m.wireMethodName() + "\" and \""
              + sameConstant.wireMethodName() + "\" would both generate the constant " + HolderWriter.descriptorName(m)
              + "; rename one of them");
        }
      }
      if (Names.STUB_MEMBERS.contains(m.javaName()) || Names.OBJECT_METHODS.contains(m.javaName())) {
        report.error(m.element(), "ReservedMethodName", "the method name " + m.javaName()
            + " clashes with a member of the generated stub or of Object; rename it");
      }
      // a method without its own timeout inherits the service's, checked once above
      if (m.timeoutSite().value() != null && (m.timeoutMillis() <= 0 || m.timeoutMillis() > Integer.MAX_VALUE)) {
        report.error(m.timeoutSite(), "InvalidTimeout", "timeoutMillis must be 0 (the service default) or 1.."
            + Integer.MAX_VALUE + ", not " + m.timeoutMillis());
      }
    }
    checkMessages(service);
    if (report.errorCount() > before) {
      return null;
    }
    return service;
  }

  private static String describe(Method m) {
    return m.element().getEnclosingElement().getSimpleName() + "." + m.javaName() + "()";
  }

  /** Unique message and enum names in the {@code .proto}, then the field rules of every record. */
  private void checkMessages(Service service) {
    Map<String, Object> names = new LinkedHashMap<>();
    Map<Message, Method> wrapperOf = new HashMap<>();
    for (Method m : service.methods()) {
      if (!m.complete()) {
        continue;
      }
      for (Message wrapper : List.of(m.request(), m.response())) {
        wrapperOf.put(wrapper, m);
        Object same = names.putIfAbsent(wrapper.protoName(), wrapper);
        if (same != null && !wrapperOf.get((Message) same).wireMethodName().equals(m.wireMethodName())) {
          report.error(m.nameSite(), "DuplicateMessageName", "the messages generated for " + describe(m) + " and "
              + describe(wrapperOf.get((Message) same)) + " would both be named " + wrapper.protoName()
              + "; rename one of them on the wire (@BoltMethod(name))");
        }
      }
    }
    List<Object> types = new ArrayList<>(service.messages());
    types.addAll(service.enums());
    for (Object type : types) {
      String protoName = type instanceof Message m ? m.protoName() : ((Model.Enumeration) type).protoName();
      Model.Site site = type instanceof Message m ? m.site() : ((Model.Enumeration) type).site();
      Object same = names.putIfAbsent(protoName, type);
      if (same == null || !checkedOnce.add("name:" + javaName(type) + "/" + javaName(same))) {
        continue;
      }
      if (same instanceof Message wrapper && wrapperOf.containsKey(wrapper)) {
        report.error(site, "DuplicateMessageName", javaName(type) + " is named " + protoName
            + " by @BoltMessage(name), the name of the message generated for " + describe(wrapperOf.get(wrapper))
            + "; choose another name");
      } else {
        report.error(site, "DuplicateMessageName", "two types of service " + service.serviceName() + " are named "
            + protoName + " in its .proto: " + javaName(type) + " and " + javaName(same)
            + "; set @BoltMessage(name) on one of them");
      }
    }
    for (Message message : service.messages()) {
      if (checkedOnce.add("fields:" + message.javaType())) {
        checkFields(message);
      }
    }
  }

  private static String javaName(Object o) {
    if (o instanceof Message m) {
      return m.javaType().toString();
    }
    return ((Model.Enumeration) o).className().canonicalName();
  }

  private void checkFields(Message message) {
    Set<Integer> reserved = new HashSet<>(message.reserved());
    Map<Integer, Field> byNumber = new HashMap<>();
    boolean anyExplicit = message.fields().stream().anyMatch(f -> f.site().mirror() != null);
    List<Field> unnumbered = message.fields().stream().filter(f -> f.site().mirror() == null).toList();
    if (anyExplicit && !unnumbered.isEmpty()) {
      List<String> names = unnumbered.stream().map(Field::name).toList();
      String parts = message.kind() == Model.MessageKind.ONEOF ? "cases" : "components";
      report.error(unnumbered.get(0).site(), "MissingFieldNumber", "field numbers are all-or-nothing: other "
          + parts + " of " + message.protoName() + " set @BoltField, so " + String.join(", ", names)
          + (names.size() == 1 ? " needs" : " need") + " one too");
    }
    for (Field f : message.fields()) {
      int n = f.number();
      if (anyExplicit && f.site().mirror() == null) {
        continue;
      }
      if (n < 1 || n > MAX_FIELD || (n >= 19000 && n <= 19999)) {
        report.error(f.site(), "InvalidFieldNumber", "field number " + n + " of " + f.name()
            + " is outside 1.." + MAX_FIELD + " or inside protobuf's reserved 19000..19999");
        continue;
      }
      if (reserved.contains(n)) {
        report.error(f.site(), "ReservedFieldNumber", "field number " + n + " of " + f.name()
            + " is reserved by @BoltMessage(reserved) of " + message.protoName());
        continue;
      }
      Field same = byNumber.putIfAbsent(n, f);
      if (same != null) {
        report.error(f.site(), "DuplicateFieldNumber", "field number " + n + " of " + f.name()
            + " is also the number of " + same.name() + " in " + message.protoName());
      }
    }
  }
}
