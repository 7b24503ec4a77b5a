package io.boltgen.spring.sample;

import io.boltgen.runtime.Publishers;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;

/** The streaming methods of the sample service, in terms of {@link #greet}: every implementation of it shares them. */
public abstract class GreeterStreams implements Greeter {

  @Override
  public Flow.Publisher<Greeting> greetEachWord(Name name) {
    return Publishers.of(Arrays.stream(name.value().split(" ")).map(word -> greet(new Name(word))).toList());
  }

  @Override
  public CompletableFuture<Greeting> greetAll(Flow.Publisher<Name> names) {
    CompletableFuture<Greeting> all = new CompletableFuture<>();
    names.subscribe(new Flow.Subscriber<>() {
      private final List<String> seen = new ArrayList<>();

      @Override
      public void onSubscribe(Flow.Subscription subscription) {
        subscription.request(Long.MAX_VALUE);
      }

      @Override
      public void onNext(Name name) {
        seen.add(name.value());
      }

      @Override
      public void onError(Throwable error) {
        all.completeExceptionally(error);
      }

      @Override
      public void onComplete() {
        all.complete(new Greeting("hello " + String.join(", ", seen)));
      }
    });
    return all;
  }

  @Override
  public Flow.Publisher<Greeting> greetEach(Flow.Publisher<Name> names) {
    return Publishers.map(names, this::greet);
  }
}
