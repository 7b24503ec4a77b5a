/**
 * Micrometer for boltgen: {@link io.boltgen.micrometer.BoltObservations} observes every call on both sides
 * through the runtime's public interceptors (timers, spans, W3C trace context in Bolt request headers), and
 * {@link io.boltgen.micrometer.BoltConnectionMetrics} adds connection gauges. See docs/observability.md.
 */
package io.boltgen.micrometer;
