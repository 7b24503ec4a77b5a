package demo.guard;

/** An order; {@code warehouse} was inserted before {@code quantity}, which renumbers it. */
public record Order(String sku, String warehouse, int quantity) {}
