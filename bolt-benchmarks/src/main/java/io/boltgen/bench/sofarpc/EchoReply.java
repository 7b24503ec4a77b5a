package io.boltgen.bench.sofarpc;

/** The provider's {@code sofa.demo.EchoReply}: text = 1, length = 2, server = 3. */
public record EchoReply(String text, int length, String server) {}
