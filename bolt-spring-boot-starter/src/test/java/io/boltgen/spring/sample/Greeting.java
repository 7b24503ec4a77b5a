package io.boltgen.spring.sample;

/** A greeting. */
public record Greeting(String text) {}
