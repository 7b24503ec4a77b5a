package demo.plain;

/** What an item is. */
public enum Kind {
  TOOL,
  PART
}
