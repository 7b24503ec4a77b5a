package io.boltgen.bench.compile;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The sources the compile-cost benchmark compiles: {@code n} services like a team's, each in its own
 * package with 8 methods (every call style, a declared exception, collections, {@code Optional}, an enum)
 * and 5 records (nested records, JDK value types), each type in a file of its own.
 */
final class ServiceSources {

  static final int METHODS = 8;
  static final int RECORDS = 5;

  private ServiceSources() {}

  /** Relative path → source, for services {@code 0..n-1}. */
  static Map<String, String> of(int n) {
    Map<String, String> files = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      String pkg = "gen.s" + i;
      String dir = "gen/s" + i + "/";
      String head = "package " + pkg + ";\n\n";
      files.put(dir + "Kind.java", head + "public enum Kind { NONE, SMALL, LARGE }\n");
      files.put(dir + "Item.java", head + "import java.util.*;\n\n"
          + "/** An item. */\npublic record Item(String id, int count, List<String> tags, Map<String, Long> counts,"
          + " Optional<String> note) {}\n");
      files.put(dir + "Stock.java", head + "/** A stock level. */\npublic record Stock(Item item, long version,"
          + " double price, Kind kind, byte[] blob) {}\n");
      files.put(dir + "Batch.java", head + "import java.time.Instant;\nimport java.util.List;\n\n"
          + "/** A batch. */\npublic record Batch(List<Stock> stocks, Instant at) {}\n");
      files.put(dir + "Event.java", head + "import java.util.Set;\n\n"
          + "/** An event. */\npublic record Event(String actor, boolean urgent, Set<Integer> codes) {}\n");
      files.put(dir + "Summary.java", head + "import java.math.BigDecimal;\nimport java.util.UUID;\n\n"
          + "/** A summary. */\npublic record Summary(Batch batch, Event event, UUID id, BigDecimal total) {}\n");
      files.put(dir + "Service" + i + ".java", head
          + "import io.boltgen.annotation.*;\nimport java.util.*;\nimport java.util.concurrent.CompletableFuture;\n\n"
          + "/** Service " + i + ". */\n"
          + "@BoltService(name = \"gen.Service" + i + "\", version = \"1.0\")\n"
          + "public interface Service" + i + " {\n"
          + "  /** Gets. */\n  Item get(String id);\n"
          + "  /** Loads. */\n  CompletableFuture<Stock> load(Item key, int limit);\n"
          + "  /** Watches. */\n  void watch(String id, BoltCallback<Batch> callback);\n"
          + "  /** Audits. */\n  @Oneway void audit(Event event);\n"
          + "  /** Searches. */\n  List<Summary> search(Optional<String> query, Kind kind, int limit);\n"
          + "  /** Updates. */\n  Batch update(Batch batch) throws IllegalStateException;\n"
          + "  /** Indexes. */\n  Map<String, Item> index(Set<String> ids);\n"
          + "  /** Composes. */\n  Summary compose(Item item, Stock stock, Event event);\n"
          + "}\n");
    }
    return files;
  }
}
