/**
 * The mesh agent: {@link io.boltgen.gateway.BoltGateway} takes HTTP calls (Connect's unary protocol, JSON or
 * protobuf) and forwards them to a service's instances through a cluster client; {@link
 * io.boltgen.gateway.GatewayMain} runs it from the command line. See docs/gateway.md.
 */
package io.boltgen.gateway;
