package dev.sqlagent.engine.mariadb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.engine.Reads;
import org.junit.jupiter.api.Test;

/**
 * MariaDB prints {@code (SELECT name …) UNION (SELECT name …) ORDER BY name} with a bare {@code `name`} after
 * the set operation: the result's column, not a name that resolves to nothing (a held-out false rejection).
 * A name after it that no block outputs stays unreadable.
 */
class MariaDbUnionOrderTest {

    private static final String BLOCKS = "(/* select#1 */ select `db`.`people`.`name` AS `name` from `db`.`people` "
            + "where `db`.`people`.`dept` = 'eng' order by `db`.`people`.`score` desc limit 2) union "
            + "(/* select#2 */ select `db`.`people`.`name` AS `name` from `db`.`people` where `db`.`people`.`dept` = 'ops' "
            + "order by `db`.`people`.`score` desc limit 2)";

    @Test
    void orderByAfterAUnionNamesTheResultsColumn() {
        Reads out = new Reads();
        MariaDbQuery.read(BLOCKS + " order by `name` limit 1000", "db", out);
        assertThat(out.unreadable).isEmpty();
    }

    @Test
    void aNameNoBlockOutputsIsStillUnreadable() {
        Reads out = new Reads();
        MariaDbQuery.read(BLOCKS + " order by `salary` limit 1000", "db", out);
        assertThat(out.unreadable).isNotEmpty();
    }
}
