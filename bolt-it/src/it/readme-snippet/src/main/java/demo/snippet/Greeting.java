package demo.snippet;

/** What the server answered. */
public record Greeting(String text, long length) {}
