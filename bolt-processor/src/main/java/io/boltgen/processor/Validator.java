package io.boltgen.processor;

import io.boltgen.processor.Model.Field;
import io.boltgen.processor.Model.Message;
import io.boltgen.processor.Model.Method;
import io.boltgen.processor.Model.Service;
import java.nio.charset.StandardCharsets;
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
 * that clash with the stub, method codes, field numbers and message names. Every problem is reported on
 * its exact element; validation goes on after an error so that one compile shows every problem.
 * Pure: no {@code Elements}, no {@code Types}.
 */
final class Validator {

  static final Pattern SERVICE_NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_-]*(\\.[A-Za-z][A-Za-z0-9_-]*)*");
  static final Pattern VERSION = Pattern.compile("[0-9]+(\\.[0-9]+)*");
  static final Pattern METHOD_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  static final int MIN_CODE = 1;
  static final int MAX_CODE = 32767;
  static final int MAX_FIELD = (1 << 29) - 1;

  private final Report report;

  Validator(Report report) {
    this.report = report;
  }

  /**
   * Checks {@code service} and returns it with every method's method code assigned, or {@code null} if
   * it has errors.
   */
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
      Method sameConstant = byConstant.putIfAbsent(HolderWriter.descriptorName(m), m);
      if (sameConstant != null) {
        report.error(m.element(), "GeneratedNameClash", describe(m) + " and " + describe(sameConstant)
            + " would both generate the constant " + HolderWriter.descriptorName(m) + "; rename one of them");
      }
      if (!METHOD_NAME.matcher(m.wireMethodName()).matches()) {
        report.error(m.nameSite(), "InvalidMethodName", "invalid method name \"" + m.wireMethodName()
            + "\" on the wire: letters, digits and '_', not starting with a digit");
      }
      Method same = byName.putIfAbsent(m.wireMethodName(), m);
      if (same != null) {
        report.error(m.nameSite(), "DuplicateMethodName", "RPC method names must be unique; rename or set"
            + " @BoltMethod(name): \"" + m.wireMethodName() + "\" is also the name of " + describe(same));
      }
      if (Names.STUB_MEMBERS.contains(m.javaName()) || Names.OBJECT_METHODS.contains(m.javaName())) {
        report.error(m.element(), "ReservedMethodName", "the method name " + m.javaName()
            + " clashes with a member of the generated stub or of Object; rename it");
      }
      if (m.timeoutMillis() <= 0 || m.timeoutMillis() > Integer.MAX_VALUE) {
        report.error(m.timeoutSite(), "InvalidTimeout", "timeoutMillis must be 0 (the service default) or 1.."
            + Integer.MAX_VALUE + ", not " + m.timeoutMillis());
      }
    }
    List<Method> coded = methodCodes(service);
    checkMessages(service);
    if (report.errorCount() > before) {
      return null;
    }
    return service.withMethods(coded);
  }

  private static String describe(Method m) {
    return m.element().getEnclosingElement().getSimpleName() + "." + m.javaName() + "()";
  }

  /** Rule 7: explicit codes all-or-nothing, in range, unique; hashed codes must not collide. */
  private List<Method> methodCodes(Service service) {
    List<Method> methods = service.methods();
    Method anExplicit = methods.stream().filter(m -> m.explicitMethodCode() != 0).findFirst().orElse(null);
    List<Method> out = new ArrayList<>();
    Map<Integer, Method> byCode = new HashMap<>();
    for (Method m : methods) {
      int code;
      if (anExplicit != null) {
        if (m.explicitMethodCode() == 0) {
          report.error(m.element(), "MixedMethodCodes", "method codes are all-or-nothing: "
              + describe(anExplicit) + " sets @BoltMethod(code = " + anExplicit.explicitMethodCode() + "), so "
              + m.javaName() + "() must set one too (or none may)");
          continue;
        }
        code = m.explicitMethodCode();
        if (code < MIN_CODE || code > MAX_CODE) {
          report.error(m.methodCodeSite(), "MethodCodeOutOfRange", "method code " + code + " is outside "
              + MIN_CODE + ".." + MAX_CODE);
          continue;
        }
        Method same = byCode.putIfAbsent(code, m);
        if (same != null) {
          report.error(m.methodCodeSite(), "DuplicateMethodCode", "method code " + code + " of " + describe(m)
              + " is also the code of " + describe(same));
          report.error(same.methodCodeSite(), "DuplicateMethodCode", "method code " + code + " of "
              + describe(same) + " is also the code of " + describe(m));
          continue;
        }
      } else {
        code = hashCode(m.wireName(service.serviceName(), service.version()));
        Method same = byCode.putIfAbsent(code, m);
        if (same != null) {
          report.error(m.element(), "MethodCodeCollision", "the derived method code " + code + " of "
              + describe(m) + " collides with that of " + describe(same)
              + "; set @BoltMethod(code) on every method of the service");
          report.error(same.element(), "MethodCodeCollision", "the derived method code " + code + " of "
              + describe(same) + " collides with that of " + describe(m)
              + "; set @BoltMethod(code) on every method of the service");
          continue;
        }
      }
      out.add(m.withMethodCode(code));
    }
    return out;
  }

  /**
   * The derived method code of a method: FNV-1a (32 bit) over the UTF-8 bytes of its wire name
   * ({@code service:version/method}), folded into 1..32767 as {@code 1 + (hash >>> 1) % 32767}.
   */
  static int hashCode(String wireName) {
    int hash = 0x811c9dc5;
    for (byte b : wireName.getBytes(StandardCharsets.UTF_8)) {
      hash ^= b & 0xff;
      hash *= 0x01000193;
    }
    return 1 + (hash >>> 1) % MAX_CODE;
  }

  /** Rule 11 and unique message names. */
  private void checkMessages(Service service) {
    Map<String, Object> names = new LinkedHashMap<>();
    List<Message> all = new ArrayList<>();
    for (Method m : service.methods()) {
      all.add(m.request());
      all.add(m.response());
    }
    all.addAll(service.messages());
    for (Message message : all) {
      Object same = names.putIfAbsent(message.protoName(), message);
      if (same != null) {
        report.error(message.site(), "DuplicateMessageName", "two messages of service " + service.serviceName()
            + " are named " + message.protoName() + " in its .proto: " + javaName(message) + " and "
            + javaName(same) + "; set @BoltMessage(name) on one of them");
      }
    }
    for (Model.Enum e : service.enums()) {
      Object same = names.putIfAbsent(e.protoName(), e);
      if (same != null) {
        report.error(e.site(), "DuplicateMessageName", "two types of service " + service.serviceName()
            + " are named " + e.protoName() + " in its .proto: " + e.className().canonicalName() + " and "
            + javaName(same) + "; set @BoltMessage(name) on one of them");
      }
    }
    for (Message message : service.messages()) {
      checkFields(message);
    }
  }

  private static String javaName(Object o) {
    if (o instanceof Message m) {
      return m.javaType().toString();
    }
    return ((Model.Enum) o).className().canonicalName();
  }

  private void checkFields(Message message) {
    Set<Integer> reserved = new HashSet<>(message.reserved());
    Map<Integer, Field> byNumber = new HashMap<>();
    boolean anyExplicit = message.fields().stream().anyMatch(f -> f.site().mirror() != null);
    for (Field f : message.fields()) {
      int n = f.number();
      if (anyExplicit && f.site().mirror() == null) {
        report.error(f.site(), "MissingFieldNumber", "field numbers are all-or-nothing: other components of "
            + message.protoName() + " set @BoltField, so " + f.name() + " needs one too");
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
