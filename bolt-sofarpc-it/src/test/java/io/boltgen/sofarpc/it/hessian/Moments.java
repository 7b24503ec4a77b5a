package io.boltgen.sofarpc.it.hessian;

import io.boltgen.annotation.SofaRpcClass;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Date;
import java.util.Set;
import java.util.UUID;

/** The SOFARPC side's {@code com.example.sofa.hessian.Moments}: the JDK value types sofa-hessian writes, a set. */
@SofaRpcClass("com.example.sofa.hessian.Moments")
public record Moments(BigDecimal amount, Instant at, Duration pause, LocalDate day, LocalTime time,
    LocalDateTime when, Set<String> labels, Date seen, Timestamp entered, BigInteger count, UUID id) {}
