/**
 * Client connections: a {@link io.boltgen.runtime.client.ConnectionPool} per remote address, holding a
 * fixed number of connections that are created without races on first use (one CAS per slot), picked
 * round-robin among the writable ones, and re-made in the background with exponential backoff after a
 * close or a failed attempt.
 *
 * <p>Internal: not API.
 */
package io.boltgen.runtime.client;
