/**
 * The boltgen annotation processor. {@link io.boltgen.processor.BoltProcessor} turns every
 * {@code @BoltService} interface into a holder, a client stub, a server skeleton, protobuf wire-format
 * codecs, a {@code GeneratedService} provider and a {@code .proto} description, and lists the providers for
 * {@link java.util.ServiceLoader}.
 *
 * <p>A pipeline: {@code ModelReader} (the only code that uses {@code Elements} and {@code Types}) reads an
 * interface into the immutable {@code Model}; {@code Validator} checks it; pure writers
 * ({@code HolderWriter}, {@code StubWriter}, {@code SkeletonWriter}, {@code CodecWriter},
 * {@code ProviderWriter}, {@code ProtoFileWriter}) turn it into JavaPoet files and text; only the
 * processor writes through the {@code Filer} ({@code ProtoDescriptors} reads classes through it).
 * Everything but the processors is an implementation detail. See docs/generated-code.md for what is
 * generated and the wire mapping.
 */
package io.boltgen.processor;
