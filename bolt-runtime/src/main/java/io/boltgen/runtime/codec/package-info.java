/**
 * The serializer SPI ({@link io.boltgen.runtime.codec.Marshaller}) and the helpers generated codecs are
 * built from. Everything here writes straight into and reads straight out of Netty {@code ByteBuf}s.
 */
package io.boltgen.runtime.codec;
