package io.boltgen.spring;

/**
 * {@code boltgen.client.*} names something that does not exist or says two things at once: the application
 * does not start. {@link BoltClientConfigurationFailureAnalyzer} prints its description and the action to take;
 * the message holds both, for a context started without Spring Boot's failure analysis.
 */
public final class BoltClientConfigurationException extends IllegalStateException {

  private static final long serialVersionUID = 1L;

  private final String description;
  private final String action;

  BoltClientConfigurationException(String description, String action) {
    super(description + " " + action);
    this.description = description;
    this.action = action;
  }

  /** What is wrong, naming the property. */
  public String description() {
    return description;
  }

  /** What to change. */
  public String action() {
    return action;
  }
}
