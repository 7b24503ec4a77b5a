package io.boltgen.spring.sample;

/** Who to greet. */
public record Name(String value) {}
