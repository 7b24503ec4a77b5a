/**
 * SOFARPC's {@code bolt} protocol for generated services in the SOFARPC dialect: the request and answer
 * bodies of its protobuf and Hessian2 serializers, and its failures, which travel inside successful answers.
 * See docs/sofarpc.md.
 */
package io.boltgen.sofarpc;
