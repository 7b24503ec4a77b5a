package demo.split.api;

/** One greeting. */
public record Greeting(String text) {}
