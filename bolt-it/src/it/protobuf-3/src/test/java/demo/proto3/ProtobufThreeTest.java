package demo.proto3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import demo.proto3.pb.Note;
import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.BoltServer;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** protoc 3.25 messages through the generated stub and skeleton, on protobuf-java 3.25, over loopback. */
class ProtobufThreeTest {

  private BoltServer server;
  private BoltClient client;
  private Notes notes;

  @BeforeEach
  void start() {
    server = BoltServer.builder().bind("127.0.0.1", 0).service(NotesBolt.bind(new NotesService())).build().start();
    client = BoltClient.builder().build();
    notes = NotesBolt.newClient(client.channel("127.0.0.1:" + server.port()));
  }

  @AfterEach
  void stop() {
    client.close();
    server.close();
  }

  @Test
  void theClassPathHasProtobufJava3() throws Exception {
    Class.forName("com.google.protobuf.GeneratedMessageV3");
    // RuntimeVersion came with protobuf-java 4 (the 26.x protobuf release)
    assertThatThrownBy(() -> Class.forName("com.google.protobuf.RuntimeVersion"))
        .isInstanceOf(ClassNotFoundException.class);
  }

  @Test
  void messagesRoundTripAsArgumentResultAndInsideRecords() throws Exception {
    Note shopping = note("shopping", 2, "home", "milk", "bread");
    Note work = note("work", 5, "home", "report");
    Note other = note("other", 9, "misc");

    assertThat(notes.store(shopping)).isEqualTo(new Receipt("shopping", 2));
    assertThat(notes.store(work)).isEqualTo(new Receipt("work", 1));
    notes.store(other);

    assertThat(notes.get("shopping")).isEqualTo(shopping);
    assertThat(notes.get("missing")).isEqualTo(Note.getDefaultInstance());

    Shelf shelf = notes.shelf("home").get(10, TimeUnit.SECONDS);
    assertThat(shelf.notes()).containsExactly(shopping, work);
    assertThat(shelf.byTitle()).containsEntry("shopping", shopping).containsEntry("work", work).hasSize(2);
    assertThat(shelf.newest()).isEqualTo(work);
    assertThat(notes.shelf("none").get(10, TimeUnit.SECONDS).newest()).isNull();
  }

  private static Note note(String title, long created, String label, String... lines) {
    Note.Builder note = Note.newBuilder().setTitle(title).setCreatedMillis(created).putLabels(label, "yes");
    for (String line : lines) {
      note.addLines(line);
    }
    return note.build();
  }
}
