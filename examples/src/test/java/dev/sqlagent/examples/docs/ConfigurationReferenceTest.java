package dev.sqlagent.examples.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.SqlAgent;
import dev.sqlagent.guard.GuardPolicy;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * {@code docs/configuration.md} is the reference of every builder option: each public method of
 * {@link SqlAgent.Builder} and {@link GuardPolicy.Builder} is named there as {@code `name(}. A new option
 * fails this test until it is documented.
 */
class ConfigurationReferenceTest {

    @Test
    void everyBuilderOptionIsInTheConfigurationReference() throws IOException {
        String doc = Files.readString(projectRoot().resolve("docs/configuration.md"), StandardCharsets.UTF_8);
        TreeSet<String> missing = new TreeSet<>();
        for (Class<?> builder : List.of(SqlAgent.Builder.class, GuardPolicy.Builder.class)) {
            for (Method m : builder.getDeclaredMethods()) {
                if (Modifier.isPublic(m.getModifiers()) && !m.isSynthetic()
                        && !doc.contains("`" + m.getName() + "(")) {
                    missing.add(builder.getEnclosingClass().getSimpleName() + ".Builder." + m.getName());
                }
            }
        }
        assertThat(missing).as("builder options not documented in docs/configuration.md (as `name(...)`)").isEmpty();
    }

    private static Path projectRoot() {
        String configured = System.getProperty("sqlagent.projectRoot");
        if (configured != null && Files.isRegularFile(Path.of(configured, "docs/configuration.md"))) {
            return Path.of(configured);
        }
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.isRegularFile(p.resolve("docs/configuration.md"))) {
            p = p.getParent();
        }
        if (p == null) {
            throw new IllegalStateException("cannot find docs/configuration.md above " + Path.of("").toAbsolutePath());
        }
        return p;
    }
}
