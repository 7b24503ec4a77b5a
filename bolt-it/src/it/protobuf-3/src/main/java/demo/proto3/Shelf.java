package demo.proto3;

import demo.proto3.pb.Note;
import java.util.List;
import java.util.Map;

/** Notes in a record: a list of messages and a map with message values. */
public record Shelf(String label, List<Note> notes, Map<String, Note> byTitle, Note newest) {}
