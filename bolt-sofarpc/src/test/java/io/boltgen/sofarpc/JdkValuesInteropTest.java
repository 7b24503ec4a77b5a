package io.boltgen.sofarpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.boltgen.hessian.HessianClass;
import io.boltgen.hessian.HessianException;
import io.boltgen.hessian.HessianFixtures;
import io.boltgen.hessian.HessianReader;
import io.boltgen.hessian.HessianType;
import io.boltgen.hessian.HessianWriter;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The JDK value types of {@link SofaRpcJdkTypes} against sofa-hessian itself, both ways, with seeded random values
 * and the extremes; and what a peer may send that the type cannot hold, refused naming the class.
 */
class JdkValuesInteropTest {

  private static final long SEED = 20261206L;

  private static <T> void bothWays(HessianType<T> type, T value) {
    T read = HessianFixtures.weRead(HessianFixtures.sofaWritesObject(value), in -> in.readObject(type));
    assertThat(read).as("sofa-hessian wrote %s", value).isEqualTo(value);
    Object back = HessianFixtures.sofaReadsObject(HessianFixtures.ours(out -> out.writeObject(type, value)));
    assertThat(back).as("we wrote %s", value).isEqualTo(value);
  }

  @Test
  void everyTypeTravelsBothWaysAsSofaHessianWritesIt() {
    Random random = new Random(SEED);
    List<BigDecimal> decimals = new ArrayList<>(List.of(BigDecimal.ZERO, new BigDecimal("-12.3400"),
        new BigDecimal("1E+3"), new BigDecimal(new BigInteger("123456789012345678901234567890"), 40)));
    List<Instant> instants = new ArrayList<>(List.of(Instant.MIN, Instant.MAX, Instant.EPOCH,
        Instant.ofEpochSecond(-1, 999_999_999)));
    List<Duration> durations = new ArrayList<>(List.of(Duration.ZERO, Duration.ofSeconds(Long.MIN_VALUE),
        Duration.ofSeconds(Long.MAX_VALUE, 999_999_999), Duration.ofNanos(-1)));
    List<LocalDate> dates = new ArrayList<>(List.of(LocalDate.MIN, LocalDate.MAX, LocalDate.of(2024, 2, 29)));
    List<LocalTime> times = new ArrayList<>(List.of(LocalTime.MIN, LocalTime.MAX, LocalTime.NOON));
    for (int i = 0; i < 200; i++) {
      decimals.add(new BigDecimal(new BigInteger(random.nextInt(200) + 1, random), random.nextInt(60) - 30));
      instants.add(Instant.ofEpochSecond(random.nextLong() % Instant.MAX.getEpochSecond(), random.nextInt(1_000_000_000)));
      durations.add(Duration.ofSeconds(random.nextLong(), random.nextInt(1_000_000_000)));
      dates.add(LocalDate.ofEpochDay(random.nextInt(2_000_000) - 1_000_000L));
      times.add(LocalTime.ofNanoOfDay(Math.floorMod(random.nextLong(), 86_400_000_000_000L)));
    }
    decimals.forEach(v -> bothWays(SofaRpcJdkTypes.BIG_DECIMAL, v));
    List<BigInteger> integers = new ArrayList<>(List.of(BigInteger.ZERO, BigInteger.ONE, BigInteger.ONE.negate(),
        BigInteger.TWO.pow(31), BigInteger.TWO.pow(32).negate(), new BigInteger("-123456789012345678901234567890")));
    List<UUID> uuids = new ArrayList<>(List.of(new UUID(0, 0), new UUID(-1, -1), new UUID(Long.MIN_VALUE, 5)));
    for (int i = 0; i < 200; i++) {
      BigInteger magnitude = new BigInteger(random.nextInt(300) + 1, random);
      integers.add(random.nextBoolean() ? magnitude : magnitude.negate());
      uuids.add(new UUID(random.nextLong(), random.nextLong()));
    }
    for (BigInteger v : integers) {
      bothWays(SofaRpcJdkTypes.BIG_INTEGER, v);
      // byte for byte as sofa-hessian writes a fresh one (its caches not computed yet: 0)
      assertThat(HessianFixtures.ours(out -> out.writeObject(SofaRpcJdkTypes.BIG_INTEGER, v)))
          .isEqualTo(HessianFixtures.sofaWritesObject(new BigInteger(v.toByteArray())));
    }
    for (UUID v : uuids) {
      bothWays(SofaRpcJdkTypes.UUID, v);
      assertThat(HessianFixtures.ours(out -> out.writeObject(SofaRpcJdkTypes.UUID, v)))
          .isEqualTo(HessianFixtures.sofaWritesObject(v));
    }
    instants.forEach(v -> bothWays(SofaRpcJdkTypes.INSTANT, v));
    durations.forEach(v -> bothWays(SofaRpcJdkTypes.DURATION, v));
    dates.forEach(v -> bothWays(SofaRpcJdkTypes.LOCAL_DATE, v));
    times.forEach(v -> bothWays(SofaRpcJdkTypes.LOCAL_TIME, v));
    for (int i = 0; i < dates.size(); i++) {
      bothWays(SofaRpcJdkTypes.LOCAL_DATE_TIME, LocalDateTime.of(dates.get(i), times.get(i)));
    }
  }

  @Test
  @SuppressWarnings("JavaUtilDate") // a peer's Dates are what is tested
  void aDateAndATimestampTravelAsSofaHessianWritesThem() {
    Random random = new Random(SEED + 1);
    List<Long> millis = new ArrayList<>(List.of(0L, -1L, Long.MIN_VALUE, Long.MAX_VALUE));
    for (int i = 0; i < 200; i++) {
      millis.add(random.nextLong());
    }
    for (long ms : millis) {
      Date date = new Date(ms);
      assertThat(HessianFixtures.weRead(HessianFixtures.sofaWritesObject(date), SofaRpcJdkTypes::readDate))
          .isEqualTo(date);
      byte[] ours = HessianFixtures.ours(out -> SofaRpcJdkTypes.writeDate(out, date));
      assertThat(HessianFixtures.sofaReadsObject(ours)).isEqualTo(date);
      assertThat(ours).isEqualTo(HessianFixtures.sofaWritesObject(date));
    }
    assertThat(HessianFixtures.weRead(HessianFixtures.ours(out -> SofaRpcJdkTypes.writeDate(out, null)),
        SofaRpcJdkTypes::readDate)).isNull();
    for (long ms : millis) {
      if (ms == Long.MIN_VALUE) {
        continue; // sofa-hessian reads a Timestamp of Long.MIN_VALUE milliseconds as none ("expects name")
      }
      Timestamp timestamp = new Timestamp(ms);
      bothWays(SofaRpcJdkTypes.SQL_TIMESTAMP, timestamp);
      assertThat(HessianFixtures.ours(out -> out.writeObject(SofaRpcJdkTypes.SQL_TIMESTAMP, timestamp)))
          .isEqualTo(HessianFixtures.sofaWritesObject(timestamp));
    }
    // sofa-hessian carries milliseconds: a finer Timestamp is refused, not cut
    Timestamp fine = new Timestamp(1_000);
    fine.setNanos(1);
    assertThatThrownBy(() -> HessianFixtures.ours(out -> out.writeObject(SofaRpcJdkTypes.SQL_TIMESTAMP, fine)))
        .isInstanceOf(HessianException.class).hasMessageContaining("finer than the milliseconds");
    assertThatThrownBy(() -> HessianFixtures.weRead(HessianFixtures.ours(out -> out.writeLong(5)),
        SofaRpcJdkTypes::readDate)).isInstanceOf(HessianException.class).hasMessageContaining("expected a date");
  }

  @Test
  void aSetTravelsAsATypedListInItsOrder() {
    Set<String> set = new LinkedHashSet<>(List.of("zeta", "alpha", "mid"));
    byte[] ours = HessianFixtures.ours(out -> out.writeList("java.util.LinkedHashSet", set, HessianWriter::writeString));
    assertThat(HessianFixtures.sofaReadsObject(ours)).isInstanceOf(LinkedHashSet.class).isEqualTo(set)
        .asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.ITERABLE).containsExactly("zeta", "alpha", "mid");
    List<String> read = HessianFixtures.weRead(HessianFixtures.sofaWritesObject(set),
        in -> in.readList(HessianReader::readString));
    assertThat(read).containsExactly("zeta", "alpha", "mid");
  }

  @Test
  void aBigIntegerCarriesTheFieldNamesOfThisJdkAndEitherJdksAreReadRightOnEither() {
    // Java 25 names two of BigInteger's caches otherwise than Java 17: sofa-hessian writes the names of the JDK it
    // runs on, and so do we
    int java = Runtime.version().feature();
    if (java == 17) {
      assertThat(SofaRpcJdkTypes.BIG_INTEGER_FIELDS).isEqualTo(SofaRpcJdkTypes.BIG_INTEGER_JAVA_17);
    } else if (java >= 25) {
      assertThat(SofaRpcJdkTypes.BIG_INTEGER_FIELDS).isEqualTo(SofaRpcJdkTypes.BIG_INTEGER_JAVA_25);
    }
    assertThat(Set.copyOf(SofaRpcJdkTypes.BIG_INTEGER_FIELDS))
        .isEqualTo(SofaRpcJdkTypes.instanceFields(BigInteger.class));
    // a JDK whose BigInteger has other fields has no known layout: writing one there fails instead of guessing
    assertThat(SofaRpcJdkTypes.bigIntegerFields(Set.of("signum", "mag", "bitCountPlusOne"))).isEmpty();

    List<BigInteger> values = List.of(BigInteger.ZERO, BigInteger.TWO.pow(32).negate(),
        new BigInteger("123456789012345678901234567890"));
    for (List<String> layout : List.of(SofaRpcJdkTypes.BIG_INTEGER_JAVA_17, SofaRpcJdkTypes.BIG_INTEGER_JAVA_25)) {
      HessianType<BigInteger> peer = new HessianType<>() {
        @Override
        public HessianClass hessianClass() {
          return HessianClass.of("java.math.BigInteger", layout.toArray(String[]::new));
        }

        @Override
        public void writeFields(HessianWriter out, BigInteger value) {
          SofaRpcJdkTypes.BIG_INTEGER.writeFields(out, value);
        }

        @Override
        public BigInteger readFields(HessianReader in, HessianClass sent) {
          throw new UnsupportedOperationException();
        }
      };
      for (BigInteger v : values) {
        // sofa-hessian on this JDK reads the names of the other JDK (the caches it does not know stay "not computed")
        assertThat(HessianFixtures.sofaReadsObject(HessianFixtures.ours(out -> out.writeObject(peer, v))))
            .as("%s in %s", v, layout).isEqualTo(v);
      }
      // and we read by signum and mag, whatever a peer's caches hold
      BigInteger read = readHandle("java.math.BigInteger", layout, out -> {
        out.writeInt(-1);
        for (int i = 0; i < 4; i++) {
          out.writeInt(7);
        }
        out.writeList("[int", List.of(1, 0), HessianWriter::writeInt);
      }, SofaRpcJdkTypes.BIG_INTEGER);
      assertThat(read).isEqualTo(BigInteger.TWO.pow(32).negate());
    }
  }

  @Test
  void aJava8PeersBigIntegerReadsByItsSignumAndMagnitudeAlone() {
    // Java 8 names its caches bitCount, bitLength, lowestSetBit, firstNonzeroIntNum, and writes mag first
    BigInteger read = readHandle("java.math.BigInteger", List.of("mag", "signum", "bitCount", "bitLength"), out -> {
      out.writeList("[int", List.of(1, 0), HessianWriter::writeInt);
      out.writeInt(-1);
      out.writeInt(7);
      out.writeInt(33);
    }, SofaRpcJdkTypes.BIG_INTEGER);
    assertThat(read).isEqualTo(BigInteger.TWO.pow(32).negate());
    assertThatThrownBy(() -> readHandle("java.math.BigInteger", List.of("signum", "mag"), out -> {
      out.writeInt(0);
      out.writeList("[int", List.of(5), HessianWriter::writeInt);
    }, SofaRpcJdkTypes.BIG_INTEGER)).isInstanceOf(HessianException.class)
        .hasMessageStartingWith("java.math.BigInteger: signum 0 with a magnitude of 1 ints");
    assertThatThrownBy(() -> readHandle("java.math.BigInteger", List.of("signum"), out -> out.writeInt(1),
        SofaRpcJdkTypes.BIG_INTEGER)).isInstanceOf(HessianException.class)
        .hasMessage("java.math.BigInteger without an int signum and its mag");
  }

  @Test
  void whatTheTypeCannotHoldIsRefusedNamingTheClass() {
    assertThatThrownBy(() -> readHandle("java.math.BigDecimal", List.of("value"), out -> out.writeString("12,5"),
        SofaRpcJdkTypes.BIG_DECIMAL)).isInstanceOf(HessianException.class)
        .hasMessage("java.math.BigDecimal: the value \"12,5\" is not a number");
    assertThatThrownBy(() -> readHandle("com.caucho.hessian.io.java8.LocalDateHandle", List.of("year", "month", "day"),
        out -> {
          out.writeInt(2023);
          out.writeInt(2);
          out.writeInt(30);
        }, SofaRpcJdkTypes.LOCAL_DATE)).isInstanceOf(HessianException.class)
        .hasMessageStartingWith("com.caucho.hessian.io.java8.LocalDateHandle: Invalid date 'FEBRUARY 30'");
    assertThatThrownBy(() -> readHandle("com.caucho.hessian.io.java8.InstantHandle", List.of("seconds"),
        out -> out.writeLong(1), SofaRpcJdkTypes.INSTANT)).isInstanceOf(HessianException.class)
        .hasMessage("com.caucho.hessian.io.java8.InstantHandle without its nanos");
    assertThatThrownBy(() -> readHandle("com.caucho.hessian.io.java8.LocalTimeHandle",
        List.of("hour", "minute", "second", "nano"), out -> {
          out.writeInt(1);
          out.writeLong(1L << 40);
          out.writeInt(0);
          out.writeInt(0);
        }, SofaRpcJdkTypes.LOCAL_TIME)).isInstanceOf(HessianException.class)
        .hasMessageContaining("LocalTimeHandle");
  }

  /** Reads with {@code type} an object of {@code className} whose fields {@code write} writes. */
  private static <T> T readHandle(String className, List<String> fields,
      java.util.function.Consumer<HessianWriter> write, HessianType<T> type) {
    byte[] bytes = HessianFixtures.ours(out -> out.writeObject(new HessianType<String>() {
      @Override
      public HessianClass hessianClass() {
        return HessianClass.of(className, fields.toArray(String[]::new));
      }

      @Override
      public void writeFields(HessianWriter w, String ignored) {
        write.accept(w);
      }

      @Override
      public String readFields(HessianReader in, HessianClass sent) {
        throw new UnsupportedOperationException();
      }
    }, "x"));
    return HessianFixtures.weRead(bytes, in -> in.readObject(type));
  }
}
