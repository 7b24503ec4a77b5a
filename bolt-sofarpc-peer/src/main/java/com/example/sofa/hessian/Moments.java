package com.example.sofa.hessian;

import java.io.Serializable;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Date;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;

/**
 * A hessian2 bean of the JDK value types sofa-hessian writes (a java.util.Date among them; BigInteger and UUID by
 * reflection, which on Java 17 needs java.math and java.util opened), and a set.
 */
@SuppressWarnings({"JavaUtilDate", "UndefinedEquals"}) // a DTO's Date is what is tested
public class Moments implements Serializable {
  private static final long serialVersionUID = 1L;

  private BigDecimal amount;
  private Instant at;
  private Duration pause;
  private LocalDate day;
  private LocalTime time;
  private LocalDateTime when;
  private Set<String> labels;
  private Date seen;
  private Timestamp entered;
  private BigInteger count;
  private UUID id;

  public Moments() {}

  public Moments(BigDecimal amount, Instant at, Duration pause, LocalDate day, LocalTime time, LocalDateTime when,
      Set<String> labels, Date seen, Timestamp entered, BigInteger count, UUID id) {
    this.amount = amount;
    this.at = at;
    this.pause = pause;
    this.day = day;
    this.time = time;
    this.when = when;
    this.labels = labels;
    this.seen = seen;
    this.entered = entered;
    this.count = count;
    this.id = id;
  }

  public BigDecimal getAmount() {
    return amount;
  }

  public Instant getAt() {
    return at;
  }

  public Duration getPause() {
    return pause;
  }

  public LocalDate getDay() {
    return day;
  }

  public LocalTime getTime() {
    return time;
  }

  public LocalDateTime getWhen() {
    return when;
  }

  public Set<String> getLabels() {
    return labels;
  }

  public Date getSeen() {
    return seen;
  }

  public Timestamp getEntered() {
    return entered;
  }

  public BigInteger getCount() {
    return count;
  }

  public UUID getId() {
    return id;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Moments m && Objects.equals(amount, m.amount) && Objects.equals(at, m.at)
        && Objects.equals(pause, m.pause) && Objects.equals(day, m.day) && Objects.equals(time, m.time)
        && Objects.equals(when, m.when) && Objects.equals(labels, m.labels) && Objects.equals(seen, m.seen)
        && Objects.equals(entered, m.entered) && Objects.equals(count, m.count) && Objects.equals(id, m.id);
  }

  @Override
  public int hashCode() {
    return Objects.hash(amount, at, pause, day, time, when, labels, seen, entered, count, id);
  }

  @Override
  public String toString() {
    return "Moments[" + amount + ", " + at + ", " + pause + ", " + day + ", " + time + ", " + when + ", " + labels
        + ", " + (seen == null ? null : seen.getTime()) + ", " + entered + ", " + count + ", " + id + "]";
  }
}
