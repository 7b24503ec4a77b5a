package io.boltgen.spring;

import io.boltgen.runtime.NettyVersion;
import java.util.StringJoiner;
import java.util.TreeMap;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports a Netty older than the runtime needs ({@link NettyVersion#requireSupported()}, run by the starter as the
 * context starts): most often Spring Boot's dependency management, which pins its own Netty, chose it.
 */
final class UnsupportedNettyFailureAnalyzer extends AbstractFailureAnalyzer<NettyVersion.UnsupportedException> {

  @Override
  protected FailureAnalysis analyze(Throwable rootFailure, NettyVersion.UnsupportedException cause) {
    StringJoiner found = new StringJoiner(", ");
    new TreeMap<>(cause.found()).forEach((artifact, version) -> found.add(artifact + " " + version));
    String required = cause.required();
    String description = "boltgen's runtime needs Netty " + required + " or newer, but the class path has " + found
        + ". Spring Boot's dependency management pins a Netty of its own, and without the netty.version property"
        + " it wins over the one boltgen asks for.";
    String action = "Set the property in your pom: <properties><netty.version>" + required
        + "</netty.version></properties> (with spring-boot-starter-parent), or import io.netty:netty-bom:" + required
        + " in <dependencyManagement> before spring-boot-dependencies (Gradle: netty.version=" + required
        + " in gradle.properties with Spring's dependency-management plugin). Check with: mvn dependency:tree"
        + " -Dincludes=io.netty";
    return new FailureAnalysis(description, action, cause);
  }
}
