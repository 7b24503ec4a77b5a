package io.boltgen.runtime;

/** Whether a method expects a response. */
public enum MethodType {
  /** Request type 0x01: the server answers with one response frame. */
  REQUEST_RESPONSE,
  /** Request type 0x02: the server never answers. */
  ONEWAY
}
