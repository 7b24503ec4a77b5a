package io.boltgen.processor;

import io.boltgen.processor.ProtoSchema.EnumDef;
import io.boltgen.processor.ProtoSchema.Field;
import io.boltgen.processor.ProtoSchema.Label;
import io.boltgen.processor.ProtoSchema.Message;
import io.boltgen.processor.ProtoSchema.Range;
import io.boltgen.processor.ProtoSchema.Rpc;
import io.boltgen.processor.ProtoSchema.Value;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A small recursive-descent parser for the proto2/proto3 subset a service description needs: syntax,
 * package, imports, options (skipped), services with rpcs (streams accepted), messages with implicit,
 * {@code optional}, {@code required}, {@code repeated} and {@code map<K, V>} fields, field options
 * (skipped), {@code reserved} numbers, ranges and names, {@code oneof} blocks, nested messages and enums,
 * enums with explicit (also negative) numbers. Comments are skipped except three the processor writes:
 * the {@code Bolt service} header, each rpc's {@code className} line and each type's {@code Java:} line.
 * Not supported (a parse error): groups.
 */
final class ProtoParser {

  /** A syntax error, with its 1-based line. */
  static final class ParseException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    final int line;

    ParseException(int line, String message) {
      super("line " + line + ": " + message);
      this.line = line;
    }
  }

  private static final Pattern HEADER = Pattern.compile("Bolt service (\\S+), version ([^;\\s]+);");
  /** An rpc's comment; baselines recorded by earlier versions also name a method code, which is skipped. */
  private static final Pattern CLASS_NAME =
      Pattern.compile("className (\\S+), (?:method code \\d+, )?(\\w+(?: stream)?)\\.");
  private static final Pattern JAVA = Pattern.compile("^Java: (\\S+)");

  /** A token and the comments right before it. */
  private record Token(String text, boolean string, int line, List<String> comments) {}

  private final List<Token> tokens = new ArrayList<>();
  private final List<String> allComments = new ArrayList<>();
  private final ProtoSchema.Builder out = new ProtoSchema.Builder();
  private int pos;

  ProtoParser(String text) {
    lex(text);
  }

  ProtoSchema parse() {
    for (String c : allComments) {
      Matcher m = HEADER.matcher(c);
      if (m.find()) {
        out.service = m.group(1);
        out.version = m.group(2);
        break;
      }
    }
    while (pos < tokens.size()) {
      Token t = next();
      switch (t.text) {
        case "syntax", "edition" -> {
          expect("=");
          string();
          expect(";");
        }
        case "package" -> {
          out.pkg = name();
          expect(";");
        }
        case "import" -> {
          if (peek("public") || peek("weak")) {
            next();
          }
          out.imports.add(string());
          expect(";");
        }
        case "option" -> skipStatement();
        case "message" -> message(t, "");
        case "enum" -> enumDef(t, "");
        case "service" -> service();
        case "extend" -> {
          name();
          skipBlock();
        }
        case ";" -> { }
        default -> throw error(t, "unexpected '" + t.text + "'");
      }
    }
    return out.build();
  }

  private void service() {
    String name = name();
    if (out.protoService == null) {
      out.protoService = name;
    }
    expect("{");
    while (!peek("}")) {
      Token t = next();
      switch (t.text) {
        case "rpc" -> rpc(t);
        case "option" -> skipStatement();
        case ";" -> { }
        default -> throw error(t, "unexpected '" + t.text + "' in service " + name);
      }
    }
    expect("}");
  }

  private void rpc(Token first) {
    String name = name();
    String request = streamable();
    expect("returns");
    String response = streamable();
    if (peek("{")) {
      skipBlock();
    } else {
      expect(";");
    }
    String className = null;
    String style = null;
    for (String c : first.comments) {
      Matcher m = CLASS_NAME.matcher(c);
      if (m.find()) {
        className = m.group(1);
        style = m.group(2);
      }
    }
    out.rpcs.add(new Rpc(name, request, response, className, style, first.line));
  }

  private String streamable() {
    expect("(");
    if (peek("stream")) {
      next();
    }
    String type = name();
    expect(")");
    return type;
  }

  private void message(Token first, String prefix) {
    String name = prefix + name();
    List<Field> fields = new ArrayList<>();
    List<Range> reserved = new ArrayList<>();
    Set<String> reservedNames = new LinkedHashSet<>();
    expect("{");
    while (!peek("}")) {
      Token t = next();
      switch (t.text) {
        case "message" -> message(t, name + ".");
        case "enum" -> enumDef(t, name + ".");
        case "reserved" -> reserved(reserved, reservedNames);
        case "option", "extensions" -> skipStatement();
        case "extend" -> {
          name();
          skipBlock();
        }
        case "oneof" -> {
          String oneof = name();
          expect("{");
          while (!peek("}")) {
            Token f = next();
            if (f.text.equals("option")) {
              skipStatement();
            } else if (!f.text.equals(";")) {
              fields.add(field(f, oneof));
            }
          }
          expect("}");
        }
        case ";" -> { }
        default -> fields.add(field(t, null));
      }
    }
    expect("}");
    out.messages.put(name, new Message(name, List.copyOf(fields), List.copyOf(reserved), ordered(reservedNames),
        javaName(first), first.line));
  }

  /** {@code names} unmodifiable, in the order the text gave them (descriptors are written in that order). */
  private static Set<String> ordered(Set<String> names) {
    return java.util.Collections.unmodifiableSet(new LinkedHashSet<>(names));
  }

  private Field field(Token first, String oneof) {
    Label label = switch (first.text) {
      case "optional" -> Label.OPTIONAL;
      case "repeated" -> Label.REPEATED;
      case "required" -> Label.REQUIRED;
      default -> Label.IMPLICIT;
    };
    Token typeToken = label == Label.IMPLICIT ? first : next();
    String key = null;
    String type = typeToken.text;
    if (type.equals("map") && peek("<")) {
      expect("<");
      key = name();
      expect(",");
      type = name();
      expect(">");
      label = Label.MAP;
    } else if (type.equals("group")) {
      throw error(typeToken, "groups are not supported");
    } else {
      checkName(typeToken);
    }
    String name = name();
    expect("=");
    int number = number();
    if (peek("[")) {
      skipBalanced();
    }
    expect(";");
    return new Field(name, number, label, key, type, oneof, first.line);
  }

  private void enumDef(Token first, String prefix) {
    String name = prefix + name();
    List<Value> values = new ArrayList<>();
    List<Range> reserved = new ArrayList<>();
    Set<String> reservedNames = new LinkedHashSet<>();
    expect("{");
    while (!peek("}")) {
      Token t = next();
      switch (t.text) {
        case "option" -> skipStatement();
        case "reserved" -> reserved(reserved, reservedNames);
        case ";" -> { }
        default -> {
          checkName(t);
          expect("=");
          int number = number();
          if (peek("[")) {
            skipBalanced();
          }
          expect(";");
          values.add(new Value(t.text, number, t.line));
        }
      }
    }
    expect("}");
    out.enums.put(name, new EnumDef(name, List.copyOf(values), List.copyOf(reserved), ordered(reservedNames),
        javaName(first), first.line));
  }

  private void reserved(List<Range> ranges, Set<String> names) {
    do {
      if (pos < tokens.size() && tokens.get(pos).string) {
        names.add(string());
      } else {
        int from = number();
        int to = from;
        if (peek("to")) {
          next();
          if (peek("max")) {
            next();
            to = ProtoSchema.MAX_NUMBER;
          } else {
            to = number();
          }
        }
        ranges.add(new Range(from, to));
      }
    } while (peek(",") && next() != null);
    expect(";");
  }

  /** The type of the last {@code // Java: x.y.Z} comment before {@code first} (the processor writes it last). */
  private static String javaName(Token first) {
    String java = null;
    for (String c : first.comments) {
      Matcher m = JAVA.matcher(c);
      if (m.find()) {
        java = m.group(1);
      }
    }
    return java;
  }

  // ---- tokens

  private int number() {
    boolean negative = peek("-");
    if (negative) {
      next();
    }
    Token t = next();
    try {
      long v = Long.decode(t.text);
      return Math.toIntExact(negative ? -v : v);
    } catch (NumberFormatException | ArithmeticException e) {
      throw error(t, "expected a number, not '" + t.text + "'");
    }
  }

  private String name() {
    Token t = next();
    checkName(t);
    return t.text;
  }

  private void checkName(Token t) {
    if (t.string || !(Character.isLetter(t.text.charAt(0)) || t.text.charAt(0) == '_' || t.text.charAt(0) == '.')) {
      throw error(t, "expected a name, not '" + t.text + "'");
    }
  }

  private String string() {
    Token t = next();
    if (!t.string) {
      throw error(t, "expected a string, not '" + t.text + "'");
    }
    return t.text;
  }

  private boolean peek(String text) {
    return pos < tokens.size() && !tokens.get(pos).string && tokens.get(pos).text.equals(text);
  }

  private Token next() {
    if (pos >= tokens.size()) {
      int line = tokens.isEmpty() ? 1 : tokens.get(tokens.size() - 1).line;
      throw new ParseException(line, "unexpected end of file");
    }
    return tokens.get(pos++);
  }

  private void expect(String text) {
    Token t = next();
    if (t.string || !t.text.equals(text)) {
      throw error(t, "expected '" + text + "', not '" + t.text + "'");
    }
  }

  /** Skips to the end of a statement, over balanced brackets ({@code option x = { a: 1 };}). */
  private void skipStatement() {
    while (!peek(";")) {
      if (peek("{") || peek("[") || peek("(")) {
        skipBalanced();
      } else {
        next();
      }
    }
    next();
  }

  private void skipBlock() {
    if (!peek("{")) {
      throw error(next(), "expected '{'");
    }
    skipBalanced();
  }

  /** Skips from an opening bracket to its match. */
  private void skipBalanced() {
    int depth = 0;
    do {
      Token t = next();
      if (!t.string && (t.text.equals("{") || t.text.equals("[") || t.text.equals("("))) {
        depth++;
      } else if (!t.string && (t.text.equals("}") || t.text.equals("]") || t.text.equals(")"))) {
        depth--;
      }
    } while (depth > 0);
  }

  private static ParseException error(Token t, String message) {
    return new ParseException(t.line, message);
  }

  private void lex(String s) {
    int line = 1;
    List<String> comments = new ArrayList<>();
    int i = 0;
    while (i < s.length()) {
      char c = s.charAt(i);
      if (c == '\n') {
        line++;
        i++;
      } else if (Character.isWhitespace(c)) {
        i++;
      } else if (s.startsWith("//", i)) {
        int end = s.indexOf('\n', i);
        end = end < 0 ? s.length() : end;
        String text = s.substring(i + 2, end).strip();
        comments.add(text);
        allComments.add(text);
        i = end;
      } else if (s.startsWith("/*", i)) {
        int end = s.indexOf("*/", i + 2);
        if (end < 0) {
          throw new ParseException(line, "unclosed comment");
        }
        String text = s.substring(i + 2, end);
        line += (int) text.chars().filter(ch -> ch == '\n').count();
        allComments.add(text.strip());
        i = end + 2;
      } else if (c == '"' || c == '\'') {
        StringBuilder text = new StringBuilder();
        int j = i + 1;
        while (j < s.length() && s.charAt(j) != c && s.charAt(j) != '\n') {
          if (s.charAt(j) == '\\' && j + 1 < s.length()) {
            j++;
          }
          text.append(s.charAt(j++));
        }
        if (j >= s.length() || s.charAt(j) != c) {
          throw new ParseException(line, "unclosed string");
        }
        tokens.add(new Token(text.toString(), true, line, List.copyOf(comments)));
        comments.clear();
        i = j + 1;
      } else if (Character.isLetterOrDigit(c) || c == '_' || c == '.') {
        int j = i;
        while (j < s.length() && (Character.isLetterOrDigit(s.charAt(j)) || s.charAt(j) == '_' || s.charAt(j) == '.')) {
          j++;
        }
        tokens.add(new Token(s.substring(i, j), false, line, List.copyOf(comments)));
        comments.clear();
        i = j;
      } else {
        tokens.add(new Token(String.valueOf(c), false, line, List.copyOf(comments)));
        comments.clear();
        i++;
      }
    }
  }
}
