package io.boltgen.bench.mesh;

import io.boltgen.annotation.BoltService;

/**
 * The service of the {@code mesh} benchmark, the 2018 Alibaba mesh-agent contest's provider: the hash of a string,
 * answered after a fixed delay. The processor generates {@code HashServiceBolt} from it; the gateway serves it as
 * {@code POST} {@code HashServiceBolt.METHOD_HASH.httpPath()}.
 */
@BoltService(name = "mesh.Hash", version = "1.0")
public interface HashService {

  /** {@code text.hashCode()}, after the provider's delay. */
  int hash(String text);
}
