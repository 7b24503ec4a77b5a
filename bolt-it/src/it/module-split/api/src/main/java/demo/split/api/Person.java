package demo.split.api;

/** Someone to greet. */
public record Person(String name, int age) {}
