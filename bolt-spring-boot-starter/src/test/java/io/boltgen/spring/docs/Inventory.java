package io.boltgen.spring.docs;

import io.boltgen.annotation.BoltService;

/**
 * The service the documentation's snippets configure ({@code demo.Inventory}, as in the example), with the two
 * methods they name, so that {@code SpringDocsSnippetsTest} reads every snippet as pasted.
 */
@BoltService(name = "demo.Inventory", version = "1.0", timeoutMillis = 3000)
public interface Inventory {

  /** A stock level. */
  int get(String sku);

  /** A report. */
  String report(boolean includeEmpty);
}
