package io.boltgen.sofarpc;

/**
 * A failure of the provider itself rather than of a method, answered as SOFARPC's provider answers its own
 * errors: {@code isError} with this message as it stands (Hessian2), or the message alone (protobuf), and no
 * exception class. An expected answer: it carries no stack trace.
 */
final class ProviderError extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private ProviderError(String message) {
    super(message, null, false, false);
  }

  /**
   * What SOFARPC's provider answers a request for a service it does not export ({@code uniqueName}, as the
   * request named it), word for word as sofa-rpc 5.13.2 does, trailing space included.
   */
  static ProviderError unknownService(String uniqueName) {
    return new ProviderError("RPC-020100010: RPC cannot find service: [" + uniqueName + "] ");
  }
}
