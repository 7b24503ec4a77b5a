/**
 * boltgen's one Hessian codec: the draft Hessian 2.0 grammar that sofa-hessian 3.5.x (SOFABolt's and SOFARPC's)
 * speaks. {@link io.boltgen.hessian.HessianWriter} writes it as sofa-hessian does,
 * {@link io.boltgen.hessian.HessianReader} reads it from untrusted input within named limits, and generated code
 * maps records to the Java classes of the peer with a {@link io.boltgen.hessian.HessianType} each. The runtime
 * uses it for SOFABolt's error bodies, bolt-sofarpc for SOFARPC's Hessian2 bodies.
 */
package io.boltgen.hessian;
