package dev.sqlagent.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.cases.FixStore;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.schema.SchemaCatalog;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a fix store sees of a failure: a hash that keeps the cache's key rules, and readable labels. */
class FixCacheKeyTest {

    private static final GuardPolicy POLICY = GuardPolicy.allowingTables("employees");
    private static final SchemaCatalog SCHEMA = SchemaCatalog.of(List.of(new SchemaCatalog.Table("employees",
            List.of(new SchemaCatalog.Column("id", "INTEGER", false, ""),
                    new SchemaCatalog.Column("name", "VARCHAR", true, "")), List.of("id"), List.of(), "")));

    private static FixStore.Key key(String sql, String message, GuardPolicy policy) {
        return FixCache.storeKey(FixCache.key(sql, "COLUMN_NOT_FOUND", message, policy, SCHEMA));
    }

    @Test
    void theStoreSeesAHashAndLabelsNeverTheStatement() {
        FixStore.Key k = key("SELECT nme FROM employees WHERE name = 'Secret Name'", "Column \"NME\" not found", POLICY);

        assertThat(k.hash()).hasSize(64).matches("[0-9a-f]+");
        assertThat(k.category()).isEqualTo("COLUMN_NOT_FOUND");
        assertThat(k.policyFingerprint()).isEqualTo(Fingerprints.of(POLICY));
        assertThat(k.schemaFingerprint()).isEqualTo(Fingerprints.of(SCHEMA));
        assertThat(k.toString()).doesNotContain("Secret").doesNotContain("nme");
    }

    @Test
    void theHashKeepsTheKeyRules() {
        FixStore.Key base = key("SELECT nme FROM employees WHERE name = 'Ab'", "Column \"NME\" not found [42122-232]",
                POLICY);

        assertThat(key("select  NME from EMPLOYEES where NAME = 'Ab'", "column \"nme\"   not found", POLICY))
                .as("words without case, spaces, codes").isEqualTo(base);
        assertThat(key("SELECT nme FROM employees WHERE name = 'AB'", "Column \"NME\" not found", POLICY).hash())
                .as("literals exactly").isNotEqualTo(base.hash());
        assertThat(key("SELECT nme FROM employees WHERE name = 'Ab'", "Column \"NME\" not found",
                GuardPolicy.allowingTables("employees", "orders")).hash()).as("another policy")
                .isNotEqualTo(base.hash());
    }

    @Test
    void aSeparatorInsideTheStatementDoesNotMoveTheLabels() {
        FixStore.Key k = key("SELECT nme FROM employees WHERE name = 'a\u0000b'", "m\u0000n", POLICY);

        assertThat(k.category()).isEqualTo("COLUMN_NOT_FOUND");
        assertThat(k.schemaFingerprint()).isEqualTo(Fingerprints.of(SCHEMA));
    }
}
