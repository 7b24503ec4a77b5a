package com.example.sofa.hessian;

/**
 * The hessian2 service of the interop contract, served and consumed by SOFARPC with serialization "hessian2"
 * (interface name, version "1.0", uniqueId "" are what a boltgen peer must match).
 */
public interface GreetService {

  /**
   * A new Greeting: name = "hello " + name; times + 1; same stamp; score * 2; !formal; tags plus "seen"; counts
   * plus "server" -> 1 (a LinkedHashMap, order kept); same from; blob reversed (null stays null).
   */
  Greeting greet(Greeting g);

  /** a + ":" + b. */
  String join(String a, int b);

  /** Always throws {@code new GreetingRefused("refused: " + why, 409, "customer " + why + " is blocked")}. */
  Greeting refuse(String why) throws GreetingRefused;

  /** Sleeps millis, then returns "slept " + millis. */
  String slow(int millis);

  /** Records one ping for text (called oneway). */
  void ping(String text);

  /** How many pings were recorded for text. */
  int pings(String text);

  /** The provider's id. */
  String whoami();

  /**
   * Throws an exception it does not declare, with the message {@code kind}: IllegalStateException for "state",
   * IllegalArgumentException for "argument", UnsupportedOperationException for anything else.
   */
  String fail(String kind);

  /** {@code c} and {@code boxed} (or '-' for null) followed by '!': chars, which Hessian2 carries as strings. */
  String initials(char c, Character boxed);

  /**
   * Each value moved on: amount * 2, at + 1 s, pause + 1 ms, day + 1, time + 1 h, when + 1 day, labels plus
   * "seen" in their order, seen + 1 s, entered + 1 s, count + 1, id's low bits + 1 (a null stays null): the JDK
   * value types and a set, there and back.
   */
  Moments shift(Moments m);

  /**
   * Every array of {@code t} and its rows reversed (null stays null), then {@code extra} appended to the ints,
   * byName as it came: arrays of every kind and collections inside collections, in a bean and as an argument.
   */
  Tables turn(Tables t, int[] extra);
}
