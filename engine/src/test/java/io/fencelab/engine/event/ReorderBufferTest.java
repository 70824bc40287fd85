package io.fencelab.engine.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class ReorderBufferTest {

    private static Event event(long seq) {
        return new Event.PauseEnded(seq, 0, "A");
    }

    @Test
    void eventsComeOutInSeqOrderWhateverOrderTheyArriveIn() {
        List<Long> arrival = new ArrayList<>(LongStream.rangeClosed(1, 5_000).boxed().toList());
        Collections.shuffle(arrival, new Random(7)); // a straggler can hold up thousands: the ring grows
        ReorderBuffer buffer = new ReorderBuffer();
        List<Event> out = new ArrayList<>();
        for (long seq : arrival) {
            buffer.add(event(seq));
            buffer.takeReady(out, Integer.MAX_VALUE);
        }
        assertThat(out).extracting(Event::seq).containsExactlyElementsOf(LongStream.rangeClosed(1, 5_000).boxed().toList());
        assertThat(buffer.held()).isZero();
        assertThat(buffer.next()).isEqualTo(5_001);
    }

    @Test
    void aSkippedNumberDoesNotHoldUpTheNextOnes() {
        ReorderBuffer buffer = new ReorderBuffer();
        List<Event> out = new ArrayList<>();
        buffer.add(event(3));
        buffer.add(event(1));
        buffer.takeReady(out, 10);
        assertThat(out).extracting(Event::seq).containsExactly(1L);
        buffer.skip(2);
        buffer.takeReady(out, 10);
        assertThat(out).extracting(Event::seq).containsExactly(1L, 3L);
        assertThat(buffer.next()).isEqualTo(4);
    }

    @Test
    void takeReadyStopsAtTheLimit() {
        ReorderBuffer buffer = new ReorderBuffer();
        for (long seq = 1; seq <= 10; seq++) {
            buffer.add(event(seq));
        }
        List<Event> out = new ArrayList<>();
        buffer.takeReady(out, 4);
        assertThat(out).hasSize(4);
        assertThat(buffer.held()).isEqualTo(6);
    }

    @Test
    void aRepeatedOrAlreadyDeliveredSeqIsABug() {
        ReorderBuffer buffer = new ReorderBuffer();
        buffer.add(event(2));
        assertThatThrownBy(() -> buffer.add(event(2))).hasMessageContaining("twice");
        buffer.add(event(1));
        buffer.takeReady(new ArrayList<>(), 10);
        assertThatThrownBy(() -> buffer.add(event(1))).hasMessageContaining("after 2 was delivered");
    }
}
