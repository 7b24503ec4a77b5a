package io.boltgen.sofarpc.it.hessian;

import io.boltgen.annotation.SofaRpcClass;

/** The SOFARPC side's {@code com.example.sofa.hessian.Mood}. */
@SofaRpcClass("com.example.sofa.hessian.Mood")
public enum Mood {
  CALM,
  CROSS,
  GLAD
}
