package io.boltgen.testing;

import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test class when Netty reported a buffer leak while it ran (or in the collections this extension
 * forces after it). Registered automatically for every test class through Jupiter's extension
 * auto-detection.
 */
public final class NoLeaksExtension implements AfterAllCallback {

  @Override
  public void afterAll(ExtensionContext context) {
    if (!LeakRecorder.isInstalled()) {
      throw new AssertionError("the recording leak detector is not installed; is bolt-testing on the test class path?");
    }
    List<String> leaks = LeakRecorder.collect();
    if (!leaks.isEmpty()) {
      throw new AssertionError(leaks.size() + " ByteBuf leak(s) reported during or before "
          + context.getDisplayName() + ":\n" + String.join("\n\n", leaks));
    }
  }
}
