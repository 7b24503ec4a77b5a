package io.boltgen.json;

import io.boltgen.runtime.cluster.ServiceInstance;
import io.boltgen.runtime.support.HostAndPort;
import io.boltgen.runtime.support.MessageText;
import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.SerializableString;
import tools.jackson.core.io.CharacterEscapes;
import tools.jackson.core.io.SerializedString;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.json.JsonWriteFeature;

/**
 * The stored form of a {@link ServiceInstance} in a registry: the value every registry keeps for an instance
 * of a service ({@code bolt-registry-etcd} as the value of key {@code <prefix>/<service>/<host:port>},
 * {@code bolt-registry-zookeeper} as the data of node {@code <root>/<service>/<host:port>}). Other tools read
 * and write it too, so this is the format, exactly. It is one UTF-8 JSON object (RFC 8259):
 *
 * <pre>{@code
 * {"address":"10.0.0.7:12200","weight":100,"version":"1.4.2","zone":"zone-a","metadata":{"rack":"r7"}}
 * }</pre>
 *
 * <table>
 * <caption>The fields</caption>
 * <tr><th>field</th><th>type</th><th>absent or {@code null}</th><th>rule</th></tr>
 * <tr><td>{@code address}</td><td>string</td><td>refused</td><td>{@code host:port}, port 1..65535,
 *     {@code [v6]:port} for IPv6 literals (docs/cluster.md, "Addresses")</td></tr>
 * <tr><td>{@code weight}</td><td>integer</td><td>{@value ServiceInstance#DEFAULT_WEIGHT}</td>
 *     <td>0..{@value ServiceInstance#MAX_WEIGHT}, without fraction or exponent</td></tr>
 * <tr><td>{@code version}</td><td>string</td><td>{@code ""}</td><td>free text</td></tr>
 * <tr><td>{@code zone}</td><td>string</td><td>{@code ""}</td><td>free text</td></tr>
 * <tr><td>{@code metadata}</td><td>object of strings</td><td>none</td>
 *     <td>at most {@value ServiceInstance#MAX_METADATA} entries; a value is a string, never {@code null}</td></tr>
 * </table>
 *
 * <p><b>Written</b> ({@link #write}) with all five fields in that order, no whitespace, the address as
 * {@link ServiceInstance#hostAndPort()} and the metadata keys sorted ({@link String#compareTo}). Strings
 * escape {@code "} and {@code \}, use {@code \b \f \n \r \t}, and <code>&#92;u00xx</code> (lower-case hex) for
 * the other control characters, DEL, U+2028, U+2029 and unpaired surrogates; every other character is written
 * as itself, in UTF-8 ({@code /} included). So any Java string survives the round trip, and one instance is
 * always written as the same bytes.
 *
 * <p><b>Read</b> ({@link #read}) strictly: valid UTF-8 (no byte order mark); then the JSON rules of boltgen's
 * readers (RFC 8259 exactly, one value, no duplicate names, numbers of at most 1,000 characters), nesting at
 * most {@value #MAX_DEPTH} deep. Fields not listed above are ignored, whatever their value, so that a later
 * writer may add some. A registry bounds the size of what it reads before calling {@link #read}.
 *
 * <p>Stateless and thread-safe; built on jackson-core's streaming parser and generator, and never looks a
 * name up.
 */
public final class InstanceRecord {

  /** Nesting deeper than this (objects and arrays) is refused; the format itself needs two levels. */
  static final int MAX_DEPTH = 16;

  private static final JsonFactory READER = StrictJson.factory(MAX_DEPTH);

  private static final JsonFactory WRITER = JsonFactory.builder()
      .disable(JsonWriteFeature.ESCAPE_FORWARD_SLASHES)
      .disable(JsonWriteFeature.WRITE_HEX_UPPER_CASE)
      .enable(JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8) // a pair as itself, a lone half escaped
      .characterEscapes(new Escapes())
      .build();

  private InstanceRecord() {}

  /** {@code instance} in the stored form: never fails, always the same bytes for equal instances. */
  public static byte[] write(ServiceInstance instance) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(96 + 32 * instance.metadata().size());
    try (JsonGenerator json = WRITER.createGenerator(ObjectWriteContext.empty(), out)) {
      json.writeStartObject();
      json.writeStringProperty("address", instance.hostAndPort());
      json.writeNumberProperty("weight", instance.weight());
      json.writeStringProperty("version", instance.version());
      json.writeStringProperty("zone", instance.zone());
      json.writeName("metadata");
      json.writeStartObject();
      for (Map.Entry<String, String> e : new TreeMap<>(instance.metadata()).entrySet()) {
        json.writeStringProperty(e.getKey(), e.getValue());
      }
      json.writeEndObject();
      json.writeEndObject();
    }
    return out.toByteArray();
  }

  /** What JSON requires escaped, and DEL, U+2028 and U+2029, which some readers take for line ends. */
  private static final class Escapes extends CharacterEscapes {
    private static final long serialVersionUID = 1L;
    private final int[] ascii = standardAsciiEscapesForJSON();

    Escapes() {
      ascii[0x7f] = ESCAPE_STANDARD;
    }

    @Override
    public int[] getEscapeCodesForAscii() {
      return ascii;
    }

    @Override
    public SerializableString getEscapeSequence(int ch) {
      return ch == '\u2028' || ch == '\u2029' ? new SerializedString(String.format("\\u%04x", ch)) : null;
    }
  }

  /**
   * The instance that {@code data} in the stored form describes.
   *
   * @throws IllegalArgumentException saying what is wrong (and naming the field), if {@code data} is not
   *     exactly that form
   */
  public static ServiceInstance read(byte[] data) {
    String text;
    try {
      text = StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(data))
          .toString();
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException("not UTF-8");
    }
    return StrictJson.read(READER, text, InstanceRecord::fields);
  }

  /** The instance the object at {@code json} describes, read to its end. */
  private static ServiceInstance fields(JsonParser json) {
    if (json.currentToken() != JsonToken.START_OBJECT) {
      throw new IllegalArgumentException("not a JSON object");
    }
    String address = null;
    int weight = ServiceInstance.DEFAULT_WEIGHT;
    String version = "";
    String zone = "";
    Map<String, String> metadata = Map.of();
    for (String name = json.nextName(); name != null; name = json.nextName()) {
      if (json.nextToken() == JsonToken.VALUE_NULL) {
        continue; // as if absent
      }
      switch (name) {
        case "address" -> address = string(json, name);
        case "weight" -> weight = weight(json);
        case "version" -> version = string(json, name);
        case "zone" -> zone = string(json, name);
        case "metadata" -> metadata = metadata(json);
        default -> json.skipChildren(); // a field of a later version
      }
    }
    if (address == null) {
      throw new IllegalArgumentException("no \"address\"");
    }
    InetSocketAddress socketAddress;
    try {
      socketAddress = HostAndPort.parse(address);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("\"address\": " + e.getMessage());
    }
    return new ServiceInstance(socketAddress, weight, version, zone, metadata);
  }

  private static String string(JsonParser json, String name) {
    if (json.currentToken() != JsonToken.VALUE_STRING) {
      throw new IllegalArgumentException("\"" + name + "\" must be a string");
    }
    return json.getString();
  }

  private static int weight(JsonParser json) {
    boolean integer = json.currentToken() == JsonToken.VALUE_NUMBER_INT
        && json.getNumberType() != JsonParser.NumberType.BIG_INTEGER;
    if (!integer || json.getLongValue() < 0 || json.getLongValue() > ServiceInstance.MAX_WEIGHT) {
      throw new IllegalArgumentException("\"weight\" must be an integer 0.." + ServiceInstance.MAX_WEIGHT);
    }
    return json.getIntValue();
  }

  /** The metadata object at {@code json}: every entry is read, at most the bound kept. */
  private static Map<String, String> metadata(JsonParser json) {
    if (json.currentToken() != JsonToken.START_OBJECT) {
      throw new IllegalArgumentException("\"metadata\" must be an object");
    }
    Map<String, String> metadata = new LinkedHashMap<>();
    int entries = 0;
    for (String key = json.nextName(); key != null; key = json.nextName()) {
      if (json.nextToken() != JsonToken.VALUE_STRING) {
        throw new IllegalArgumentException("\"metadata\" value of " + MessageText.quote(key) + " must be a string");
      }
      if (++entries <= ServiceInstance.MAX_METADATA) {
        metadata.put(key, json.getString());
      }
    }
    if (entries > ServiceInstance.MAX_METADATA) {
      throw new IllegalArgumentException("\"metadata\" has " + entries + " entries, more than "
          + ServiceInstance.MAX_METADATA);
    }
    return metadata;
  }
}
