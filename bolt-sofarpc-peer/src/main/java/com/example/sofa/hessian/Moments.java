package com.example.sofa.hessian;

import java.io.Serializable;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Objects;
import java.util.Set;

/** A hessian2 bean of the JDK value types sofa-hessian writes, and a set. */
public class Moments implements Serializable {
  private static final long serialVersionUID = 1L;

  private BigDecimal amount;
  private Instant at;
  private Duration pause;
  private LocalDate day;
  private LocalTime time;
  private LocalDateTime when;
  private Set<String> labels;

  public Moments() {}

  public Moments(BigDecimal amount, Instant at, Duration pause, LocalDate day, LocalTime time, LocalDateTime when,
      Set<String> labels) {
    this.amount = amount;
    this.at = at;
    this.pause = pause;
    this.day = day;
    this.time = time;
    this.when = when;
    this.labels = labels;
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

  @Override
  public boolean equals(Object o) {
    return o instanceof Moments m && Objects.equals(amount, m.amount) && Objects.equals(at, m.at)
        && Objects.equals(pause, m.pause) && Objects.equals(day, m.day) && Objects.equals(time, m.time)
        && Objects.equals(when, m.when) && Objects.equals(labels, m.labels);
  }

  @Override
  public int hashCode() {
    return Objects.hash(amount, at, pause, day, time, when, labels);
  }

  @Override
  public String toString() {
    return "Moments[" + amount + ", " + at + ", " + pause + ", " + day + ", " + time + ", " + when + ", " + labels
        + "]";
  }
}
