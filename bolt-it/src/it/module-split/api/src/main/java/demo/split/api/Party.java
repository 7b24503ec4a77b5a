package demo.split.api;

import java.util.List;

/** People greeted together. */
public record Party(String occasion, List<Person> guests) {}
