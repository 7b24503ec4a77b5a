/**
 * Test support shared by every boltgen module. Its jar registers, through {@code META-INF/services}:
 * <ul>
 *   <li>{@link io.boltgen.testing.LeakDetectionInstaller}, a JUnit launcher-session listener that installs a
 *       recording Netty leak detector before any test (and so before any {@code ByteBuf}) exists;</li>
 *   <li>{@link io.boltgen.testing.NoLeaksExtension}, a Jupiter extension (auto-detected, see
 *       {@code junit-platform.properties}) that fails a test class when a leak was reported while it ran
 *       or in the collections forced after it.</li>
 * </ul>
 * Surefire runs with {@code -Dio.netty.leakDetection.level=paranoid}, so every buffer is tracked.
 *
 * <p>For TLS tests, {@link io.boltgen.testing.TestCertificates} generates CAs, server and client certificates
 * (PEM, PKCS12, JKS) into a test's temporary directory, in the test's JVM with Netty's {@code netty-pkitesting}.
 *
 * <p>Tests run child processes one way: {@link io.boltgen.testing.ReadyProcess}, a server that prints
 * {@code READY <port>}, and {@link io.boltgen.testing.EtcdProcess} / {@link io.boltgen.testing.EtcdCluster},
 * real etcd members from the {@code etcd} on the PATH, are started, signalled, stopped (SIGTERM, then SIGKILL)
 * and never outlive the test.
 */
package io.boltgen.testing;
