package io.boltgen.spring;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Reports a {@link BoltClientConfigurationException}: what in {@code boltgen.client.*} is wrong, and the fix. */
final class BoltClientConfigurationFailureAnalyzer extends AbstractFailureAnalyzer<BoltClientConfigurationException> {

  @Override
  protected FailureAnalysis analyze(Throwable rootFailure, BoltClientConfigurationException cause) {
    return new FailureAnalysis(cause.description(), cause.action(), cause);
  }
}
