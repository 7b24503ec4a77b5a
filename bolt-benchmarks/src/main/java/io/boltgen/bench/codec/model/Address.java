package io.boltgen.bench.codec.model;

/** A postal address: the nested record of {@link Order}. */
public record Address(String street, String city, String zip, String country) {}
