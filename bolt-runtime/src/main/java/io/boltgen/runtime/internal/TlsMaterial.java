package io.boltgen.runtime.internal;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.boltgen.runtime.Tls;
import io.boltgen.runtime.support.MessageText;
import io.boltgen.runtime.support.RateLimitedLog;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.Timeout;
import io.netty.util.Timer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The TLS context of one client or server, which {@link #reload} replaces (new connections use the new one,
 * existing ones keep theirs), and which can watch its files and reload when one changes. Makes the
 * {@link SslHandler} of each new channel: first in its pipeline, TLS straight on the socket.
 *
 * <p>Thread-safe: the context is replaced with one volatile write; reloads are serialized.
 */
public final class TlsMaterial {

  private static final Logger log = LoggerFactory.getLogger(TlsMaterial.class);
  private static final RateLimitedLog reloadFailures = RateLimitedLog.of(log);

  private final Tls tls;
  private final boolean server;
  private final boolean alpn;
  private volatile SslContext context;
  @GuardedBy("this")
  private List<FileTime> stamps;
  private volatile Timeout watch;
  private volatile boolean closed;

  /**
   * Reads the material now; throws IllegalArgumentException if it is unusable. {@code alpn}: a server that
   * also serves HTTP offers {@code h2} and {@code http/1.1} by ALPN.
   */
  public TlsMaterial(Tls tls, boolean server, boolean alpn) {
    this.tls = tls;
    this.server = server;
    this.alpn = alpn;
    this.stamps = stamps();
    this.context = build();
  }

  private SslContext build() {
    return server ? TlsContexts.server(tls, alpn) : TlsContexts.client(tls);
  }

  /** A new channel's handler; {@code peer} is the address a client connects to (its host is verified). */
  SslHandler newHandler(ByteBufAllocator alloc, InetSocketAddress peer) {
    SslContext current = context;
    if (server) {
      return current.newHandler(alloc);
    }
    // the peer's host is what the context's host name check (on unless turned off) compares the certificate to
    return peer == null ? current.newHandler(alloc) : current.newHandler(alloc, peer.getHostString(), peer.getPort());
  }

  /**
   * Reads the key and trust material again; new connections use it. On failure the current material stays
   * and the exception says why.
   */
  public synchronized void reload() {
    List<FileTime> now = stamps();
    SslContext next = build();
    context = next;
    stamps = now;
    log.info("TLS material reloaded from {}", tls.files());
  }

  /** Checks the files every {@code reloadMillis} of the settings on {@code timer}, reloading on a change. */
  public void watch(Timer timer) {
    if (tls.reloadMillis() <= 0 || closed) {
      return;
    }
    try {
      watch = timer.newTimeout(t -> {
        try {
          if (!closed && !stamps().equals(currentStamps())) {
            reload();
          }
        } catch (Throwable e) {
          reloadFailures.warn("reloading TLS material from {} failed; the current material stays: {}",
              tls.files(), MessageText.shorten(String.valueOf(e.getMessage())));
        } finally {
          watch(timer);
        }
      }, tls.reloadMillis(), TimeUnit.MILLISECONDS);
    } catch (IllegalStateException e) {
      // the timer stopped: the process is shutting down
    }
  }

  private synchronized List<FileTime> currentStamps() {
    return stamps;
  }

  /** Stops watching the files. */
  public void close() {
    closed = true;
    Timeout t = watch;
    if (t != null) {
      t.cancel();
    }
  }

  private List<FileTime> stamps() {
    List<FileTime> out = new ArrayList<>();
    for (Path file : tls.files()) {
      try {
        out.add(Files.getLastModifiedTime(file));
      } catch (IOException e) {
        out.add(FileTime.fromMillis(-1));
      }
    }
    return out;
  }
}
