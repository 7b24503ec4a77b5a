package demo.proto3;

import demo.proto3.pb.Note;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.stream.Collectors;

/** Keeps notes in memory. */
public final class NotesService implements Notes {

  private final Map<String, Note> notes = new ConcurrentSkipListMap<>();

  @Override
  public Receipt store(Note note) {
    notes.put(note.getTitle(), note);
    return new Receipt(note.getTitle(), note.getLinesCount());
  }

  @Override
  public Note get(String title) {
    return notes.getOrDefault(title, Note.getDefaultInstance());
  }

  @Override
  public CompletableFuture<Shelf> shelf(String label) {
    List<Note> labelled = notes.values().stream().filter(n -> n.containsLabels(label)).toList();
    Note newest = labelled.stream().max(Comparator.comparingLong(Note::getCreatedMillis)).orElse(null);
    return CompletableFuture.completedFuture(new Shelf(label, labelled,
        labelled.stream().collect(Collectors.toMap(Note::getTitle, n -> n)), newest));
  }
}
