package io.boltgen.json;

import io.boltgen.runtime.MethodDescriptor;
import java.util.Objects;

/**
 * The JSON forms of one method's request and response, which its {@link MethodDescriptor} keeps as an
 * {@linkplain MethodDescriptor#extension extension}. Generated code adds them when this module is on the
 * class path of the compilation:
 *
 * <pre>{@code
 * .extension(JsonForms.class, JsonForms.of(InventoryBoltJson.GET_REQUEST, InventoryBoltJson.GET_RESPONSE))
 * }</pre>
 *
 * <p>A method without them is not served as JSON. Immutable.
 *
 * @param <Q> the request type
 * @param <R> the response type
 */
public final class JsonForms<Q, R> {

  private final JsonMarshaller<Q> request;
  private final JsonMarshaller<R> response;

  private JsonForms(JsonMarshaller<Q> request, JsonMarshaller<R> response) {
    this.request = Objects.requireNonNull(request, "request");
    this.response = Objects.requireNonNull(response, "response");
  }

  /** The forms made of these two marshallers. */
  public static <Q, R> JsonForms<Q, R> of(JsonMarshaller<Q> request, JsonMarshaller<R> response) {
    return new JsonForms<>(request, response);
  }

  /** The forms {@code method} keeps, or {@code null} when it has none. */
  @SuppressWarnings("unchecked") // kept by the method's own builder for its Q and R
  public static <Q, R> JsonForms<Q, R> of(MethodDescriptor<Q, R> method) {
    return method.extension(JsonForms.class);
  }

  /** The JSON form of {@code method}'s request, or {@code null} when it has none. */
  public static <Q> JsonMarshaller<Q> request(MethodDescriptor<Q, ?> method) {
    JsonForms<Q, ?> forms = of(method);
    return forms == null ? null : forms.request;
  }

  /** The JSON form of {@code method}'s response, or {@code null} when it has none. */
  public static <R> JsonMarshaller<R> response(MethodDescriptor<?, R> method) {
    JsonForms<?, R> forms = of(method);
    return forms == null ? null : forms.response;
  }

  /** The request's form. */
  public JsonMarshaller<Q> request() {
    return request;
  }

  /** The response's form. */
  public JsonMarshaller<R> response() {
    return response;
  }
}
