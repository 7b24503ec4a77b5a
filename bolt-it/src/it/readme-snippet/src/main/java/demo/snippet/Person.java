package demo.snippet;

/** Who to greet, and how many times. */
public record Person(String name, int times) {}
