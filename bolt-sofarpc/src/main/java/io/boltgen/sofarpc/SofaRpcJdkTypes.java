package io.boltgen.sofarpc;

import io.boltgen.hessian.HessianClass;
import io.boltgen.hessian.HessianException;
import io.boltgen.hessian.HessianReader;
import io.boltgen.hessian.HessianType;
import io.boltgen.hessian.HessianWriter;
import io.boltgen.runtime.codec.ArrayValues;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Timestamp;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Date;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

/**
 * The JDK value types as sofa-hessian (3.5.x) writes them, for generated code: {@code java.util.Date} as a Hessian
 * date ({@code 'd'}, milliseconds), {@code java.sql.Timestamp} as an object of its class holding one; {@code BigDecimal} as an object of
 * its class whose one field {@code value} is its string; the {@code java.time} types as sofa-hessian's
 * {@code com.caucho.hessian.io.java8} handles ({@code LocalDateHandle} with {@code year, month, day} and so on),
 * which a SOFARPC peer reads back as the value itself. A value a peer sent that its type cannot hold (a
 * malformed number, the 30th of February) is a {@link HessianException} naming the class, never null or a
 * substitute. Stateless.
 */
public final class SofaRpcJdkTypes {

  private static final String HANDLES = "com.caucho.hessian.io.java8.";

  private SofaRpcJdkTypes() {}

  /** {@code java.math.BigDecimal}: an object of that class, field {@code value} = {@link BigDecimal#toString}. */
  public static final HessianType<BigDecimal> BIG_DECIMAL = new Handle<>("java.math.BigDecimal", "value") {
    @Override
    public void writeFields(HessianWriter out, BigDecimal value) {
      out.writeString(value.toString());
    }

    @Override
    BigDecimal read(Object[] fields) {
      String text = (String) fields[0];
      try {
        return new BigDecimal(text);
      } catch (NumberFormatException e) {
        throw new HessianException("java.math.BigDecimal: the value \"" + shorten(text) + "\" is not a number");
      }
    }
  };

  /**
   * The fields of {@code java.math.BigInteger} as sofa-hessian writes them on Java 17 (by reflection, the ints in
   * declaration order, then {@code mag}): {@code signum}, four caches, {@code mag}.
   */
  static final List<String> BIG_INTEGER_JAVA_17 = List.of("signum", "bitCountPlusOne", "bitLengthPlusOne",
      "lowestSetBitPlusTwo", "firstNonzeroIntNumPlusTwo", "mag");

  /** The same on Java 25, whose BigInteger names two of the caches otherwise. */
  static final List<String> BIG_INTEGER_JAVA_25 = List.of("signum", "bitCountPlusOne", "magBitLengthPlusOne",
      "lowestSetBitPlusTwo", "numberOfTrailingZeroIntsPlusTwo", "mag");

  /**
   * {@link #BIG_INTEGER_JAVA_17} or {@link #BIG_INTEGER_JAVA_25}: the one whose names are those of this JDK's
   * BigInteger instance fields, as a SOFARPC peer on this JDK writes them; empty when neither is.
   */
  static final List<String> BIG_INTEGER_FIELDS = bigIntegerFields(instanceFields(BigInteger.class));

  static List<String> bigIntegerFields(Set<String> jdkFields) {
    for (List<String> known : List.of(BIG_INTEGER_JAVA_17, BIG_INTEGER_JAVA_25)) {
      if (jdkFields.equals(Set.copyOf(known))) {
        return known;
      }
    }
    return List.of();
  }

  /** The names of {@code type}'s own fields that sofa-hessian writes: those neither static nor transient. */
  static Set<String> instanceFields(Class<?> type) {
    Set<String> names = new TreeSet<>();
    for (Field field : type.getDeclaredFields()) { // the names only: nothing is made accessible
      if (!Modifier.isStatic(field.getModifiers()) && !Modifier.isTransient(field.getModifiers())) {
        names.add(field.getName());
      }
    }
    return names;
  }

  /**
   * {@code java.math.BigInteger} as sofa-hessian writes it, by reflection: an object of that class with its fields
   * under the names of the JDK this runs on ({@link #BIG_INTEGER_JAVA_17} on Java 17, {@link #BIG_INTEGER_JAVA_25}
   * on Java 25), {@code signum}, four caches written as 0 ("not computed yet") and {@code mag}, the magnitude as
   * big-endian ints (a list typed {@code [int}). A peer reads the caches it does not know as absent, so either
   * set of names is read right on either JDK. On a JDK whose BigInteger has other fields, writing one fails
   * naming them, rather than sending fields a peer on that JDK would misread. Read by {@code signum} and
   * {@code mag} alone, so that the caches of any JDK (Java 8's, 17's, 25's) are skipped; a signum that is not
   * -1, 0 or 1, or that disagrees with the magnitude, is refused. A SOFARPC peer on Java 17 or newer writes and
   * reads one only with {@code --add-opens java.base/java.math=ALL-UNNAMED}, as between SOFARPC peers.
   */
  public static final HessianType<BigInteger> BIG_INTEGER = new HessianType<>() {
    private final HessianClass hessianClass = HessianClass.of("java.math.BigInteger",
        (BIG_INTEGER_FIELDS.isEmpty() ? BIG_INTEGER_JAVA_17 : BIG_INTEGER_FIELDS).toArray(String[]::new));

    @Override
    public HessianClass hessianClass() {
      return hessianClass;
    }

    @Override
    public void writeFields(HessianWriter out, BigInteger value) {
      if (BIG_INTEGER_FIELDS.isEmpty()) {
        throw new HessianException("java.math.BigInteger: this JDK's has the fields "
            + instanceFields(BigInteger.class) + ", neither Java 17's nor Java 25's, so how sofa-hessian writes"
            + " one here is not known");
      }
      out.writeInt(value.signum());
      for (int i = 0; i < 4; i++) {
        out.writeInt(0);
      }
      byte[] bytes = value.abs().toByteArray(); // big-endian, perhaps a leading zero byte for the sign
      int start = 0;
      while (start < bytes.length && bytes[start] == 0) {
        start++;
      }
      int[] mag = new int[(bytes.length - start + 3) / 4];
      for (int i = bytes.length - 1, bit = 0; i >= start; i--, bit += 8) {
        mag[mag.length - 1 - bit / 32] |= (bytes[i] & 0xff) << (bit % 32);
      }
      out.writeList("[int", ArrayValues.list(mag), HessianWriter::writeInt);
    }

    @Override
    public BigInteger readFields(HessianReader in, HessianClass sent) {
      Object signum = null;
      int[] mag = null;
      for (int i = 0; i < sent.fieldCount(); i++) {
        switch (sent.fieldName(i)) {
          case "signum" -> signum = in.readValue();
          case "mag" -> mag = ArrayValues.ints(in.readList(HessianReader::readInt));
          default -> in.skipValue();
        }
      }
      if (!(signum instanceof Integer sign) || mag == null) {
        throw new HessianException("java.math.BigInteger without an int signum and its mag");
      }
      byte[] bytes = new byte[mag.length * 4];
      for (int i = 0; i < mag.length; i++) {
        bytes[4 * i] = (byte) (mag[i] >>> 24);
        bytes[4 * i + 1] = (byte) (mag[i] >>> 16);
        bytes[4 * i + 2] = (byte) (mag[i] >>> 8);
        bytes[4 * i + 3] = (byte) mag[i];
      }
      try {
        return new BigInteger(sign, bytes);
      } catch (NumberFormatException e) {
        throw new HessianException("java.math.BigInteger: signum " + sign + " with a magnitude of " + mag.length
            + " ints: " + e.getMessage());
      }
    }
  };

  /** {@code java.util.UUID} as sofa-hessian writes it, by reflection: {@code long mostSigBits, leastSigBits}. */
  public static final HessianType<UUID> UUID = new Handle<>("java.util.UUID", "mostSigBits", "leastSigBits") {
    @Override
    public void writeFields(HessianWriter out, UUID value) {
      out.writeLong(value.getMostSignificantBits());
      out.writeLong(value.getLeastSignificantBits());
    }

    @Override
    UUID read(Object[] fields) {
      return new UUID(longOf(fields[0]), longOf(fields[1]));
    }
  };

  /** {@code java.time.Instant}: sofa-hessian's {@code InstantHandle} ({@code long seconds, int nanos}). */
  public static final HessianType<Instant> INSTANT = new Handle<>(HANDLES + "InstantHandle", "seconds", "nanos") {
    @Override
    public void writeFields(HessianWriter out, Instant value) {
      out.writeLong(value.getEpochSecond());
      out.writeInt(value.getNano());
    }

    @Override
    Instant read(Object[] fields) {
      return Instant.ofEpochSecond(longOf(fields[0]), intOf(fields[1]));
    }
  };

  /** {@code java.time.Duration}: sofa-hessian's {@code DurationHandle} ({@code long seconds, int nanos}). */
  public static final HessianType<Duration> DURATION = new Handle<>(HANDLES + "DurationHandle", "seconds", "nanos") {
    @Override
    public void writeFields(HessianWriter out, Duration value) {
      out.writeLong(value.getSeconds());
      out.writeInt(value.getNano());
    }

    @Override
    Duration read(Object[] fields) {
      return Duration.ofSeconds(longOf(fields[0]), intOf(fields[1]));
    }
  };

  /** {@code java.time.LocalDate}: sofa-hessian's {@code LocalDateHandle} ({@code int year, month, day}). */
  public static final HessianType<LocalDate> LOCAL_DATE =
      new Handle<>(HANDLES + "LocalDateHandle", "year", "month", "day") {
        @Override
        public void writeFields(HessianWriter out, LocalDate value) {
          out.writeInt(value.getYear());
          out.writeInt(value.getMonthValue());
          out.writeInt(value.getDayOfMonth());
        }

        @Override
        LocalDate read(Object[] fields) {
          return LocalDate.of(intOf(fields[0]), intOf(fields[1]), intOf(fields[2]));
        }
      };

  /** {@code java.time.LocalTime}: sofa-hessian's {@code LocalTimeHandle} ({@code int hour, minute, second, nano}). */
  public static final HessianType<LocalTime> LOCAL_TIME =
      new Handle<>(HANDLES + "LocalTimeHandle", "hour", "minute", "second", "nano") {
        @Override
        public void writeFields(HessianWriter out, LocalTime value) {
          out.writeInt(value.getHour());
          out.writeInt(value.getMinute());
          out.writeInt(value.getSecond());
          out.writeInt(value.getNano());
        }

        @Override
        LocalTime read(Object[] fields) {
          return LocalTime.of(intOf(fields[0]), intOf(fields[1]), intOf(fields[2]), intOf(fields[3]));
        }
      };

  /** {@code java.time.LocalDateTime}: sofa-hessian's {@code LocalDateTimeHandle}, a date handle and a time handle. */
  public static final HessianType<LocalDateTime> LOCAL_DATE_TIME =
      new Handle<>(HANDLES + "LocalDateTimeHandle", "date", "time") {
        @Override
        public void writeFields(HessianWriter out, LocalDateTime value) {
          out.writeObject(LOCAL_DATE, value.toLocalDate());
          out.writeObject(LOCAL_TIME, value.toLocalTime());
        }

        @Override
        Object readField(HessianReader in, int index) {
          return index == 0 ? in.readObject(LOCAL_DATE) : in.readObject(LOCAL_TIME);
        }

        @Override
        LocalDateTime read(Object[] fields) {
          return LocalDateTime.of((LocalDate) fields[0], (LocalTime) fields[1]);
        }
      };

  /**
   * {@code java.sql.Timestamp}: an object of that class whose one field {@code value} is a date, as sofa-hessian
   * writes it; milliseconds only, so a Timestamp finer than that is refused rather than cut.
   */
  public static final HessianType<Timestamp> SQL_TIMESTAMP = new Handle<>("java.sql.Timestamp", "value") {
    @Override
    public void writeFields(HessianWriter out, Timestamp value) {
      if (value.getNanos() % 1_000_000 != 0) {
        throw new HessianException("java.sql.Timestamp: " + value + " is finer than the milliseconds"
            + " sofa-hessian carries");
      }
      out.writeDate(value.getTime());
    }

    @Override
    Object readField(HessianReader in, int index) {
      return in.readDate();
    }

    @Override
    Timestamp read(Object[] fields) {
      return new Timestamp(longOf(fields[0]));
    }
  };

  /** Writes a {@code java.util.Date} as sofa-hessian does, {@code 'd'} and its milliseconds; null as {@code 'N'}. */
  @SuppressWarnings("JavaUtilDate") // a peer's DTOs have Dates
  public static void writeDate(HessianWriter out, Date value) {
    if (value == null) {
      out.writeNull();
    } else {
      out.writeDate(value.getTime());
    }
  }

  /** Reads a {@code java.util.Date} a peer wrote as a date ({@code 'd'}); {@code 'N'} gives null. */
  @SuppressWarnings("JavaUtilDate")
  public static Date readDate(HessianReader in) {
    Long millis = in.readDate();
    return millis == null ? null : new Date(millis);
  }

  /** A whole number a peer wrote as a Hessian int or long. */
  private static long longOf(Object number) {
    if (number instanceof Integer || number instanceof Long) {
      return ((Number) number).longValue();
    }
    throw new ClassCastException(number.getClass().getName());
  }

  /** A whole number that an int holds exactly (else {@link ArithmeticException}). */
  private static int intOf(Object number) {
    return Math.toIntExact(longOf(number));
  }

  private static String shorten(String text) {
    return text.length() <= 64 ? text : text.substring(0, 64) + "…";
  }

  /**
   * A value sent as an object with a few named fields, each required: read by name whatever their order,
   * unknown ones skipped; a missing one, a value of another type, or values the type refuses fail naming the
   * class.
   */
  private abstract static class Handle<T> implements HessianType<T> {
    private final HessianClass hessianClass;

    Handle(String className, String... fields) {
      this.hessianClass = HessianClass.of(className, fields);
    }

    @Override
    public final HessianClass hessianClass() {
      return hessianClass;
    }

    /** Field {@code index} of {@link #hessianClass()}, read: a string, an int or a long by default. */
    Object readField(HessianReader in, int index) {
      return in.readValue();
    }

    /** The value of {@code fields}, in the order of {@link #hessianClass()}, none of them null. */
    abstract T read(Object[] fields);

    @Override
    public final T readFields(HessianReader in, HessianClass sent) {
      int count = hessianClass.fieldCount();
      Object[] fields = new Object[count];
      for (int i = 0; i < sent.fieldCount(); i++) {
        int index = hessianClass.fieldNames().indexOf(sent.fieldName(i));
        if (index < 0) {
          in.skipValue();
        } else {
          fields[index] = readField(in, index);
        }
      }
      String className = hessianClass.className();
      for (int i = 0; i < count; i++) {
        if (fields[i] == null) {
          throw new HessianException(className + " without its " + hessianClass.fieldName(i));
        }
      }
      try {
        return read(fields);
      } catch (ClassCastException e) {
        throw new HessianException(className + " with fields of other types than sofa-hessian writes");
      } catch (DateTimeException | ArithmeticException e) {
        throw new HessianException(className + ": " + e.getMessage());
      }
    }
  }
}
