package io.boltgen.bench.sofarpc;

/** The provider's {@code sofa.demo.EchoRequest}: text = 1, times = 2. */
public record EchoRequest(String text, int times) {}
