package demo.plain;

/** Width and height in millimetres. */
public record Dimensions(int width, int height) {}
