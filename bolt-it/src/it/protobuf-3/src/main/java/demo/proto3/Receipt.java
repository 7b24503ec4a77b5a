package demo.proto3;

/** What storing a note answers. */
public record Receipt(String title, int lines) {}
