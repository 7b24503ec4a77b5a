package io.boltgen.example;

import java.util.Map;
import java.util.Set;

/** Something a user did, for the audit log. */
public record AuditEvent(String actor, String action, Set<String> tags, Map<String, String> details) {}
