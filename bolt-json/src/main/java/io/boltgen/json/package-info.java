/**
 * JSON for boltgen, on jackson-core's streaming parser and generator: protobuf's JSON mapping of generated
 * messages ({@link io.boltgen.json.JsonMarshaller}, written by the processor beside each protobuf codec when this
 * module is on the class path, kept on each method as its {@link io.boltgen.json.JsonForms}, and
 * {@link io.boltgen.json.ProtoJson}, which reads and writes whole documents with one); the strict reading every
 * JSON reader of boltgen uses ({@link io.boltgen.json.StrictJson}); and the stored form of a service instance
 * that the registries share ({@link io.boltgen.json.InstanceRecord}). It may use the runtime's API and
 * {@code support}, never its {@code internal}.
 */
package io.boltgen.json;
