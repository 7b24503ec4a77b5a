package demo.plain;

import io.boltgen.annotation.BoltService;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** A catalogue whose messages use every kind of content except protobuf-java messages. */
@BoltService(name = "it.Catalog", version = "1.0")
public interface Catalog {

  /** The item {@code id}, if there is one. */
  Optional<Item> find(String id);

  /** Stores {@code item} and answers its new revision. */
  CompletableFuture<Long> store(Item item);
}
