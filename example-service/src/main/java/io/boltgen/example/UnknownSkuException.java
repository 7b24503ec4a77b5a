package io.boltgen.example;

/** The SKU asked for does not exist. Declared by {@link Inventory#get}, so callers get it as itself. */
public class UnknownSkuException extends Exception {

  private static final long serialVersionUID = 1L;

  /** An exception saying {@code message}. */
  public UnknownSkuException(String message) {
    super(message);
  }
}
