package io.boltgen.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks an interface as a Bolt RPC service. At compile time the boltgen processor generates, next to the
 * interface, a {@code <Name>Bolt} holder with a typed client stub, a server skeleton, the codecs for every
 * argument tuple and result, the command-code table and a {@code .proto} description.
 *
 * <p>The call style of each method comes from its signature:
 * <ul>
 *   <li>{@code T m(args)} (or {@code void}) — sync: blocks the caller until the response or the timeout;</li>
 *   <li>{@code CompletableFuture<T> m(args)} — future: never blocks the caller;</li>
 *   <li>{@code void m(args, BoltCallback<T> callback)} — callback: the result is delivered on an executor;</li>
 *   <li>{@code @Oneway void m(args)} — oneway: no response, no status.</li>
 * </ul>
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.TYPE)
public @interface BoltService {

  /**
   * The service name on the wire, for example {@code "demo.Inventory"}. Empty means the interface's
   * canonical name. Letters, digits, {@code '.'}, {@code '_'} and {@code '-'}; it starts with a letter.
   */
  String name() default "";

  /** The service version on the wire: digits separated by dots, for example {@code "1.0"}. */
  String version() default "1.0";

  /**
   * The default timeout of every call, in milliseconds; a method's {@link BoltMethod#timeoutMillis()} or
   * a call's options override it. Must be positive: a call never waits forever.
   */
  long timeoutMillis() default 3000;
}
