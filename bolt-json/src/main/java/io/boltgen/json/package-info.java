/**
 * JSON for boltgen: protobuf's JSON mapping of generated messages ({@link io.boltgen.json.JsonMarshaller}, written
 * by the processor beside each protobuf codec when this module is on the class path, kept on each method as its
 * {@link io.boltgen.json.JsonForms}, and {@link io.boltgen.json.ProtoJson}, which reads and writes whole documents
 * with one, on this package's own reader and writer); the strict reading every other JSON reader of boltgen uses,
 * on jackson-core's streaming parser ({@link io.boltgen.json.StrictJson}: the rules the message reader follows
 * too); and the stored form of a service instance that the registries share ({@link io.boltgen.json.InstanceRecord}).
 * It may use the runtime's API and {@code support}, never its {@code internal}.
 */
package io.boltgen.json;
