package demo.plain;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/** An item: scalars, a string, bytes, an enum, a nested record, collections and an optional. */
public record Item(String id, int count, long revision, double price, boolean active, byte[] blob,
    Kind kind, Dimensions size, List<String> tags, Map<String, Integer> stock, Optional<String> note) {}
