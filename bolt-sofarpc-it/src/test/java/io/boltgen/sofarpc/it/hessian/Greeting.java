package io.boltgen.sofarpc.it.hessian;

import io.boltgen.annotation.SofaRpcClass;
import java.util.List;
import java.util.Map;

/** The SOFARPC side's {@code com.example.sofa.hessian.Greeting}, field for field. */
@SofaRpcClass("com.example.sofa.hessian.Greeting")
@SuppressWarnings("ArrayRecordComponent") // compared field by field in the tests, blob with Arrays.equals
public record Greeting(String name, int times, long stamp, double score, boolean formal, List<String> tags,
    Map<String, Integer> counts, Person from, byte[] blob) {}
