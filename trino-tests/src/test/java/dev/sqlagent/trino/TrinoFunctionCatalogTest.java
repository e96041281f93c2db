package dev.sqlagent.trino;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The committed Trino function catalog is what {@link TrinoFunctionCatalogGenerator} makes of the cluster's
 * {@code SHOW FUNCTIONS}: a function the cluster has and the catalog lacks, or classifies otherwise, fails here.
 * With {@code -Dsqlagent.trino.writeFunctions=true} it writes the catalog instead.
 */
class TrinoFunctionCatalogTest {

    @Test
    void theCommittedCatalogClassifiesEveryFunctionOfTheCluster() throws SQLException, IOException {
        TrinoFixture.cluster();
        String generated;
        try (Connection c = TrinoFixture.admin("memory", "default")) {
            Map<String, TrinoFunctionCatalogGenerator.Entry> entries = TrinoFunctionCatalogGenerator.classify(c);
            assertThat(entries).containsKeys("transform", "max_by", "row_number", "upper", "random");
            assertThat(entries.get("transform").reason()).isEqualTo("lambda");
            generated = TrinoFunctionCatalogGenerator.text(c.getMetaData().getDatabaseProductVersion(), entries);
        }
        Path file = Path.of(TrinoFunctionCatalogGenerator.FILE);
        if (Boolean.getBoolean("sqlagent.trino.writeFunctions")) {
            Files.writeString(file, generated, StandardCharsets.UTF_8);
        }
        assertThat(Files.readString(file, StandardCharsets.UTF_8))
                .as("%s is stale: run this test with -Dsqlagent.trino.writeFunctions=true", file)
                .isEqualTo(generated);
    }
}
