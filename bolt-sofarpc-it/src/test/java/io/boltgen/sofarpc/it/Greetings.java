package io.boltgen.sofarpc.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.sofarpc.it.hessian.Greeting;
import io.boltgen.sofarpc.it.hessian.Person;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The Greeting the tests send, and what {@code greet} must answer for it (the peer's contract). */
final class Greetings {

  private Greetings() {}

  /** Every field set: a non-ASCII name, an empty and a full list, a nested Person, a blob. */
  static Greeting full() {
    Map<String, Integer> counts = new LinkedHashMap<>();
    counts.put("a", 1);
    counts.put("ß", -70_000);
    return new Greeting("Zoë 🚀", 41, 1_700_000_000_123L, 2.25, true, List.of("x", "", "日本"), counts,
        new Person("Ann", 33), new byte[] {1, 2, 3, (byte) 0xff});
  }

  /** What greet answers for {@code sent}. */
  static Greeting greeted(Greeting sent) {
    List<String> tags = new ArrayList<>(sent.tags() == null ? List.of() : sent.tags());
    tags.add("seen");
    Map<String, Integer> counts = new LinkedHashMap<>(sent.counts() == null ? Map.of() : sent.counts());
    counts.put("server", 1);
    byte[] blob = null;
    if (sent.blob() != null) {
      blob = new byte[sent.blob().length];
      for (int i = 0; i < blob.length; i++) {
        blob[i] = sent.blob()[blob.length - 1 - i];
      }
    }
    return new Greeting("hello " + sent.name(), sent.times() + 1, sent.stamp(), sent.score() * 2, !sent.formal(),
        tags, counts, sent.from(), blob);
  }

  static void assertGreeted(Greeting answer, Greeting sent) {
    Greeting expected = greeted(sent);
    assertThat(answer).usingRecursiveComparison().isEqualTo(expected);
    assertThat(answer.counts().keySet()).containsExactlyElementsOf(expected.counts().keySet());
  }
}
