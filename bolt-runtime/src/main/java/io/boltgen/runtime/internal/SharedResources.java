package io.boltgen.runtime.internal;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.HashedWheelTimer;
import io.netty.util.Timer;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The threads every client and server of the process share, reference-counted: one IO event-loop group
 * (epoll when the native library loads, NIO otherwise), one boss thread that accepts connections, and one
 * {@link HashedWheelTimer} (10 ms ticks) for every timeout. The first {@link #acquire()} starts them, the
 * last {@link #release()} stops them and waits for their threads to end. All threads are daemons: a
 * forgotten client never keeps a JVM alive.
 *
 * <p>The IO group has {@code 2 × available processors} threads unless the system property
 * {@code boltgen.io.threads} says otherwise. The process-wide account of outbound bytes
 * ({@link OutboundMemory}) lives here too.
 *
 * <p>The last release may happen on one of these threads (a client closed from a callback that runs on the
 * timer when a call times out, say); the threads are then stopped from a new short-lived thread, since a
 * thread cannot wait for itself to stop.
 */
public final class SharedResources {

  private static final Logger log = LoggerFactory.getLogger(SharedResources.class);
  private static final Object LOCK = new Object();
  @GuardedBy("LOCK")
  private static SharedResources current;
  @GuardedBy("LOCK")
  private static int references;

  private final boolean epoll;
  private final EventLoopGroup ioGroup;
  private final EventLoopGroup bossGroup;
  private final HashedWheelTimer timer;
  private final OutboundMemory outboundMemory;
  private volatile Thread timerThread;

  private SharedResources() {
    this.outboundMemory = OutboundMemory.fromSystemProperties(); // first: it may refuse a bad property
    this.epoll = useEpoll(System.getProperty("boltgen.transport", "auto"));
    IoHandlerFactory factory = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
    int ioThreads = io.boltgen.runtime.BoltClient.ioThreads();
    this.ioGroup = new MultiThreadIoEventLoopGroup(ioThreads, new DefaultThreadFactory("boltgen-io", true), factory);
    this.bossGroup = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("boltgen-boss", true),
        epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
    ThreadFactory timerThreads = new DefaultThreadFactory("boltgen-timer", true);
    this.timer = new HashedWheelTimer(r -> {
      Thread t = timerThreads.newThread(r);
      timerThread = t;
      return t;
    }, 10, TimeUnit.MILLISECONDS, 512);
    log.debug("started {} IO threads ({})", ioThreads, epoll ? "epoll" : "nio");
  }

  /**
   * Whether to use epoll, from the system property {@code boltgen.transport}: {@code auto} (the default:
   * epoll when its native library loads), {@code epoll} (required: fails if it does not load) or {@code nio}.
   */
  static boolean useEpoll(String transport) {
    switch (transport) {
      case "auto":
        return Epoll.isAvailable();
      case "nio":
        return false;
      case "epoll":
        if (!Epoll.isAvailable()) {
          throw new IllegalStateException("boltgen.transport=epoll, but epoll is not available here: "
              + Epoll.unavailabilityCause());
        }
        return true;
      default:
        throw new IllegalArgumentException("boltgen.transport must be auto, epoll or nio, not " + transport);
    }
  }

  /** References held right now (0 when no client or server is open). */
  static int references() {
    synchronized (LOCK) {
      return references;
    }
  }

  /** Takes a reference, starting the shared threads if this is the first. */
  public static SharedResources acquire() {
    synchronized (LOCK) {
      if (current == null) {
        current = new SharedResources();
      }
      references++;
      return current;
    }
  }

  /** Drops a reference; the last one stops the shared threads and waits (up to a few seconds) for them. */
  public void release() {
    synchronized (LOCK) {
      if (current != this || references == 0) {
        throw new IllegalStateException("released more often than acquired");
      }
      if (--references > 0) {
        return;
      }
      current = null;
    }
    if (isOwnThread()) {
      startThread("boltgen-shutdown", this::stopThreads);
    } else {
      stopThreads();
    }
  }

  /**
   * Runs {@code work}, which waits for the shared threads, here, or on a new daemon thread named {@code name}
   * when the calling thread is one of them (a thread cannot wait for itself).
   */
  public static void runAwayFromSharedThreads(String name, Runnable work) {
    if (isSharedThread()) {
      startThread(name, work);
    } else {
      work.run();
    }
  }

  /** Runs {@code work} on a new daemon thread named {@code name}. */
  public static void startDaemon(String name, Runnable work) {
    startThread(name, work);
  }

  private static void startThread(String name, Runnable work) {
    Thread thread = new Thread(work, name);
    thread.setDaemon(true);
    thread.start();
  }

  private void stopThreads() {
    timer.stop();
    Future<?> io = ioGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS);
    Future<?> boss = bossGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS);
    io.awaitUninterruptibly(10, TimeUnit.SECONDS);
    boss.awaitUninterruptibly(10, TimeUnit.SECONDS);
  }

  /** Whether the calling thread is one of this instance's IO, boss or timer threads. */
  boolean isOwnThread() {
    return Thread.currentThread() == timerThread || isIoThread();
  }

  /**
   * Whether the calling thread is one of the shared threads of the running instance: code there must not
   * block waiting for work those threads do.
   */
  static boolean isSharedThread() {
    SharedResources running;
    synchronized (LOCK) {
      running = current;
    }
    return running != null && running.isOwnThread();
  }

  private boolean isIoThread() {
    for (EventExecutor executor : ioGroup) {
      if (executor.inEventLoop()) {
        return true;
      }
    }
    for (EventExecutor executor : bossGroup) {
      if (executor.inEventLoop()) {
        return true;
      }
    }
    return false;
  }

  /** The process-wide account of outbound bytes. */
  OutboundMemory outboundMemory() {
    return outboundMemory;
  }

  /** The IO event-loop group. */
  public EventLoopGroup ioGroup() {
    return ioGroup;
  }

  /** The single-thread group that accepts connections. */
  public EventLoopGroup bossGroup() {
    return bossGroup;
  }

  /** The process's timer. */
  public Timer timer() {
    return timer;
  }

  /** Whether the epoll transport is in use. */
  public boolean isEpoll() {
    return epoll;
  }

  /** The client socket channel class of the transport in use. */
  public Class<? extends Channel> socketChannelClass() {
    return epoll ? EpollSocketChannel.class : NioSocketChannel.class;
  }

  /** The server socket channel class of the transport in use. */
  public Class<? extends ServerChannel> serverChannelClass() {
    return epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
  }
}
