package io.boltgen.bench.sofarpc;

import io.boltgen.annotation.SofaRpcClass;

/** The SOFARPC side's {@code com.example.sofa.hessian.Person}. */
@SofaRpcClass("com.example.sofa.hessian.Person")
public record Person(String name, int age) {}
