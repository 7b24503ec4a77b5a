/**
 * The JSON form of generated messages: {@link io.boltgen.runtime.codec.json.JsonMarshaller}, written by the
 * processor beside each protobuf codec, and {@link io.boltgen.runtime.codec.json.ProtoJson}, which reads and
 * writes documents with one on jackson-core's streaming parser and generator.
 */
package io.boltgen.runtime.codec.json;
