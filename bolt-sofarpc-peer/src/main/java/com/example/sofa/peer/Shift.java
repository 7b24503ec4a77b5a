package com.example.sofa.peer;

import com.example.sofa.hessian.Moments;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Date;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/** What {@code GreetService.shift} answers, and the values the "moments" check sends. */
@SuppressWarnings("JavaUtilDate") // a DTO's Date is what is tested
final class Shift {

  private Shift() {}

  static Moments of(Moments m) {
    Set<String> labels = null;
    if (m.getLabels() != null) {
      labels = new LinkedHashSet<>(m.getLabels());
      labels.add("seen");
    }
    return new Moments(m.getAmount() == null ? null : m.getAmount().multiply(BigDecimal.valueOf(2)),
        m.getAt() == null ? null : m.getAt().plusSeconds(1),
        m.getPause() == null ? null : m.getPause().plusMillis(1),
        m.getDay() == null ? null : m.getDay().plusDays(1),
        m.getTime() == null ? null : m.getTime().plusHours(1),
        m.getWhen() == null ? null : m.getWhen().plusDays(1), labels,
        m.getSeen() == null ? null : new Date(m.getSeen().getTime() + 1000),
        m.getEntered() == null ? null : new Timestamp(m.getEntered().getTime() + 1000),
        m.getCount() == null ? null : m.getCount().add(BigInteger.ONE),
        m.getId() == null ? null : new UUID(m.getId().getMostSignificantBits(), m.getId().getLeastSignificantBits() + 1));
  }

  /** Values with fractions, negatives and extremes a sloppy mapping would lose. */
  static List<Moments> samples() {
    return List.of(
        new Moments(new BigDecimal("-12.3400"), Instant.ofEpochSecond(-1, 999_999_999), Duration.ofSeconds(-5, 7),
            LocalDate.of(2024, 2, 28), LocalTime.of(22, 59, 59, 1), LocalDateTime.of(1999, 12, 31, 23, 0, 0, 42),
            new LinkedHashSet<>(List.of("zeta", "alpha")), new Date(-1), new Timestamp(-1_001),
            new BigInteger("-123456789012345678901234567890"), new UUID(-1, Long.MIN_VALUE)),
        new Moments(new BigDecimal("1E+3"), Instant.parse("2262-04-11T23:47:16.854775807Z"),
            Duration.ofDays(36_500), LocalDate.of(-4000, 1, 1), LocalTime.MIDNIGHT,
            LocalDateTime.of(9999, 12, 30, 0, 0), new LinkedHashSet<>(), new Date(1_733_000_000_123L),
            new Timestamp(1_733_000_000_999L), BigInteger.TWO.pow(64).subtract(BigInteger.ONE), new UUID(0, 41)),
        new Moments(null, null, null, null, null, null, null, null, null, null, null));
  }
}
