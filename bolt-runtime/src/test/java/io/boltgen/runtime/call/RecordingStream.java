package io.boltgen.runtime.call;

import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.Connection;
import io.boltgen.runtime.EchoService;
import io.boltgen.runtime.ResponseStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A transport that records what the call tells it. Its caller's messages are text, decoded on the call's thread,
 * held until the call asks for them and then told in order; the end of the caller's side is told once every
 * message it sent was.
 */
final class RecordingStream implements ServerStream {
  final List<CallStatus> closes = new ArrayList<>();
  final List<String> written = new ArrayList<>();
  final List<Message> messages = new ArrayList<>();
  volatile boolean open = true;
  volatile boolean watching;
  volatile boolean undecodable;
  Listener listener;
  boolean carriesRequestStreams = true;
  boolean carriesStreams;
  volatile boolean ready = true;
  volatile boolean unencodable;
  boolean started;
  int asked;
  int told;
  private boolean halfClosed;
  boolean halfClosedTold;

  /** The caller sends {@code text}: told now if the call asked for more than it was told. */
  void send(String text) {
    messages.add(new Message(text));
    deliver();
  }

  /** The caller's side ends. */
  void halfClose() {
    halfClosed = true;
    deliver();
  }

  private void deliver() {
    if (listener == null) {
      return;
    }
    while (told < asked && told < messages.size()) {
      listener.onMessage(messages.get(told++));
    }
    if (halfClosed && !halfClosedTold && told == messages.size()) {
      halfClosedTold = true;
      listener.onHalfClose();
    }
  }

  @Override
  public void start(Listener listener) {
    this.listener = listener;
    started = true;
  }

  boolean released() {
    return messages.stream().allMatch(m -> m.released);
  }

  /** How many of the caller's messages were released without being decoded (the call ended first). */
  long dropped() {
    return messages.stream().filter(m -> m.released && !m.decoded).count();
  }

  /** How many of the caller's messages wait, not yet asked for. */
  int waiting() {
    return messages.size() - told;
  }

  @Override
  public boolean carriesStreams() {
    return carriesStreams;
  }

  @Override
  public boolean carriesRequestStreams() {
    return carriesRequestStreams;
  }

  @Override
  public Connection connection() {
    return null;
  }

  @Override
  public String remoteText() {
    return "test";
  }

  @Override
  public int streamId() {
    return 1;
  }

  @Override
  public Map<String, String> headers() {
    return Map.of();
  }

  @Override
  public void request(int count) {
    asked += count;
    deliver();
  }

  @Override
  public boolean isReady() {
    return ready;
  }

  @Override
  public void writeMessage(Object message) {
    if (unencodable) {
      throw new IllegalArgumentException("cannot encode");
    }
    written.add(EchoService.string((byte[]) message));
  }

  @Override
  public synchronized void close(CallStatus status, boolean flush) {
    closes.add(status);
  }

  @Override
  public void flush() {}

  @Override
  public boolean isOpen() {
    return open;
  }

  @Override
  public void watchCancellation() {
    watching = true;
  }

  final class Message implements ServerStream.Message {
    private final String text;
    volatile boolean released;
    volatile boolean decoded;

    Message(String text) {
      this.text = text;
    }

    @Override
    public boolean decodeOnArrival() {
      return false;
    }

    @Override
    public Object decode() {
      released = true;
      decoded = true;
      if (undecodable) {
        throw new BoltException(ResponseStatus.SERVER_DESERIAL_EXCEPTION, "not the message it claims to be");
      }
      return EchoService.bytes(text);
    }

    @Override
    public void release() {
      released = true;
    }
  }
}
