package demo.plain;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/** Keeps items in memory. */
public final class CatalogService implements Catalog {

  private final Map<String, Item> items = new ConcurrentHashMap<>();

  @Override
  public Optional<Item> find(String id) {
    return Optional.ofNullable(items.get(id));
  }

  @Override
  public CompletableFuture<Long> store(Item item) {
    Item stored = items.merge(item.id(), item, (old, now) -> withRevision(now, old.revision() + 1));
    return CompletableFuture.completedFuture(stored.revision());
  }

  private static Item withRevision(Item i, long revision) {
    return new Item(i.id(), i.count(), revision, i.price(), i.active(), i.blob(), i.kind(), i.size(), i.tags(),
        i.stock(), i.note());
  }
}
