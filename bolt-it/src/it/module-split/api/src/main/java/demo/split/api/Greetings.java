package demo.split.api;

import java.util.List;

/** One greeting per guest, in the order of the guests. */
public record Greetings(List<Greeting> greetings) {}
