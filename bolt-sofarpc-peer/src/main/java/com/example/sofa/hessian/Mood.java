package com.example.sofa.hessian;

/** A hessian2 enum of the interop contract (sofa-hessian writes an enum as an object with its name). */
public enum Mood {
  CALM,
  CROSS,
  GLAD
}
