package io.boltgen.sofarpc.it.proto;

import static io.boltgen.annotation.BoltScalar.Type.FIXED32;
import static io.boltgen.annotation.BoltScalar.Type.FIXED64;
import static io.boltgen.annotation.BoltScalar.Type.SFIXED32;
import static io.boltgen.annotation.BoltScalar.Type.SFIXED64;
import static io.boltgen.annotation.BoltScalar.Type.SINT32;
import static io.boltgen.annotation.BoltScalar.Type.SINT64;
import static io.boltgen.annotation.BoltScalar.Type.UINT32;
import static io.boltgen.annotation.BoltScalar.Type.UINT64;

import io.boltgen.annotation.BoltScalar;
import java.util.List;
import java.util.Map;

/** The provider's {@code sofa.demo.Numbers}: each protobuf integer type, numbered 1 to 12 as in its .proto. */
public record Numbers(int int32, long int64, @BoltScalar(UINT32) int uint32, @BoltScalar(UINT64) long uint64,
    @BoltScalar(SINT32) int sint32, @BoltScalar(SINT64) long sint64,
    @BoltScalar(FIXED32) int fixed32, @BoltScalar(FIXED64) long fixed64,
    @BoltScalar(SFIXED32) int sfixed32, @BoltScalar(SFIXED64) long sfixed64,
    @BoltScalar(SINT32) List<Integer> sint32s,
    @BoltScalar(key = SINT64, value = UINT64) Map<Long, Long> uint64BySint64) {}
