package io.boltgen.testing;

import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/** Installs {@link LeakRecorder} when the JUnit launcher session opens, before any test class loads. */
public final class LeakDetectionInstaller implements LauncherSessionListener {

  @Override
  public void launcherSessionOpened(LauncherSession session) {
    LeakRecorder.install();
  }
}
