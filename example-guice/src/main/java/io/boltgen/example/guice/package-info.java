/**
 * A service built in a module with jakarta.inject on its class path: besides the usual generated code the
 * processor writes {@code PricingBoltClientProvider}, a {@code jakarta.inject.Provider<Pricing>}.
 * {@link io.boltgen.example.guice.Checkout} is an application class that gets its {@link
 * io.boltgen.example.guice.Pricing} client injected; {@link io.boltgen.example.guice.PriceList} is the
 * implementation a server exports. The tests wire both with Guice, as docs/inject.md shows.
 */
package io.boltgen.example.guice;
