package demo.proto3;

import demo.proto3.pb.Note;
import io.boltgen.annotation.BoltService;
import java.util.concurrent.CompletableFuture;

/** Keeps protobuf notes: a generated message as argument, as result and inside records. */
@BoltService(name = "it.Notes", version = "1.0")
public interface Notes {

  /** Stores {@code note} under its title. */
  Receipt store(Note note);

  /** The note titled {@code title}, or the empty note. */
  Note get(String title);

  /** The stored notes with {@code label}, and those notes keyed by title. */
  CompletableFuture<Shelf> shelf(String label);
}
