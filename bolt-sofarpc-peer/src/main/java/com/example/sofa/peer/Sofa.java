package com.example.sofa.peer;

import com.alipay.sofa.rpc.config.ApplicationConfig;
import com.alipay.sofa.rpc.config.RegistryConfig;

/** What the provider and the consumer configure alike. */
final class Sofa {
  static final String APP = "sofa-peer";
  static final String PROTOCOL = "bolt";

  private Sofa() {}

  static ApplicationConfig application() {
    return new ApplicationConfig().setAppName(APP);
  }

  /** {@code zookeeper://host:port} as SOFARPC's registry config. */
  static RegistryConfig registry(String url) {
    String prefix = "zookeeper://";
    if (!url.startsWith(prefix)) {
      throw new IllegalArgumentException("--registry: only zookeeper:// registries, not " + url);
    }
    return new RegistryConfig().setProtocol("zookeeper").setAddress(url.substring(prefix.length()));
  }
}
