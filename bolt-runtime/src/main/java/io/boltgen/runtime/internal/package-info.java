/**
 * Helpers shared by the runtime's layers (rate-limited logging, log text). Not API: any type here may change
 * or disappear in any release.
 */
package io.boltgen.runtime.internal;
