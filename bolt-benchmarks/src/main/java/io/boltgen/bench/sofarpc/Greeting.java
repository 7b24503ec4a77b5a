package io.boltgen.bench.sofarpc;

import io.boltgen.annotation.SofaRpcClass;
import java.util.List;
import java.util.Map;

/** The SOFARPC side's {@code com.example.sofa.hessian.Greeting}, field for field. */
@SofaRpcClass("com.example.sofa.hessian.Greeting")
@SuppressWarnings("ArrayRecordComponent") // sent, and its answer checked by name and times: never compared
public record Greeting(String name, int times, long stamp, double score, boolean formal, List<String> tags,
    Map<String, Integer> counts, Person from, byte[] blob) {}
