package dev.sqlagent.vector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;

class VectorSlotsTest {

    private static float[] v(float... xs) {
        return xs;
    }

    private static float[] at(VectorSlots s, int slot) {
        return Arrays.copyOfRange(s.data(), slot * s.dimension(), (slot + 1) * s.dimension());
    }

    @Test
    void appendingPastTheFirstCapacityGrowsAndKeepsEverySlot() {
        VectorSlots s = new VectorSlots(2, 2);
        float[] before = s.data();
        for (int i = 0; i < 7; i++) {
            assertThat(s.append("e" + i, v(i, -i), Map.of("i", "" + i))).isEqualTo(i);
        }
        assertThat(s.data()).isNotSameAs(before);
        assertThat(s.data().length).isGreaterThanOrEqualTo(14);
        assertThat(s.size()).isEqualTo(7);
        for (int i = 0; i < 7; i++) {
            assertThat(s.id(i)).isEqualTo("e" + i);
            assertThat(s.slotOf("e" + i)).isEqualTo(i);
            assertThat(s.metadata(i)).containsEntry("i", "" + i);
            assertThat(s.live(i)).isTrue();
            assertThat(at(s, i)).containsExactly(i, -i);
        }
        assertThat(s.slotOf("e7")).isEqualTo(-1);
    }

    @Test
    void theStoredVectorIsACopyAndSetReplacesInPlace() {
        VectorSlots s = new VectorSlots(2, 4);
        float[] x = v(1, 2);
        int slot = s.append("a", x, Map.of());
        x[0] = 9;
        assertThat(at(s, slot)).containsExactly(1, 2);
        s.set(slot, v(3, 4), Map.of("k", "v"));
        assertThat(at(s, slot)).containsExactly(3, 4);
        assertThat(s.metadata(slot)).containsEntry("k", "v");
        assertThat(s.size()).isEqualTo(1);
        assertThatThrownBy(() -> s.append("a", v(0, 0), Map.of())).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("a");
    }

    @Test
    void aRetiredSlotKeepsItsVectorButNotItsIdOrMetadata() {
        VectorSlots s = new VectorSlots(2, 4);
        s.append("a", v(1, 0), Map.of());
        s.append("b", v(0, 1), Map.of());
        s.retire(0);
        assertThat(s.live(0)).isFalse();
        assertThat(s.metadata(0)).isNull();
        assertThat(s.slotOf("a")).isEqualTo(-1);
        assertThat(s.id(0)).isEqualTo("a");
        assertThat(at(s, 0)).containsExactly(1, 0);
        assertThat(s.size()).isEqualTo(2);
        assertThat(s.append("a", v(2, 2), Map.of())).isEqualTo(2);
        assertThat(s.slotOf("a")).isEqualTo(2);
        // removing the retired slot must not forget the live entry of the same id
        s.removeMovingLast(0);
        assertThat(s.slotOf("a")).isEqualTo(0);
        assertThat(at(s, 0)).containsExactly(2, 2);
        assertThat(s.size()).isEqualTo(2);
    }

    @Test
    void removingMovesTheLastSlotIntoTheFreedOne() {
        VectorSlots s = new VectorSlots(1, 4);
        for (int i = 0; i < 4; i++) {
            s.append("e" + i, v(i), Map.of());
        }
        s.removeMovingLast(1);
        assertThat(s.size()).isEqualTo(3);
        assertThat(s.slotOf("e1")).isEqualTo(-1);
        assertThat(s.slotOf("e3")).isEqualTo(1);
        assertThat(s.id(1)).isEqualTo("e3");
        assertThat(at(s, 1)).containsExactly(3);
        s.removeMovingLast(2);
        assertThat(s.size()).isEqualTo(2);
        assertThat(s.slotOf("e2")).isEqualTo(-1);
        assertThat(s.slotOf("e0")).isZero();
        assertThat(s.slotOf("e3")).isEqualTo(1);
    }

    @Test
    void anEntryIsCheckedAndNormalised() {
        VectorSlots s = new VectorSlots(2, 1);
        float[] u = s.checkEntry("a", v(3, 4));
        assertThat(u[0]).isCloseTo(0.6f, within(1e-6f));
        assertThat(u[1]).isCloseTo(0.8f, within(1e-6f));
        assertThat(s.unit(v(0, 0))).containsExactly(0, 0);
        assertThatThrownBy(() -> s.checkEntry(" ", v(1, 0))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("blank");
        assertThatThrownBy(() -> s.checkEntry(null, v(1, 0))).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> s.checkEntry("a", null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> s.checkEntry("a", v(1, 0, 0))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("dimension must be 2 but was 3");
        assertThatThrownBy(() -> s.unit(v(Float.NaN, 0))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("finite");
        assertThatThrownBy(() -> new VectorSlots(0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new VectorSlots(1, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
