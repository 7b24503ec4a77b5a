/**
 * SOFARPC's Hessian serialization: the draft Hessian 2.0 grammar that sofa-hessian 3.5.x speaks.
 * {@link io.boltgen.hessian.HessianWriter} writes it as sofa-hessian does,
 * {@link io.boltgen.hessian.HessianReader} reads it from untrusted input, and generated code maps
 * records to the Java classes of the peer with a {@link io.boltgen.hessian.HessianType} each.
 */
package io.boltgen.hessian;
