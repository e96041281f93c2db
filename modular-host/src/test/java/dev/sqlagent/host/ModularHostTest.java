package dev.sqlagent.host;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.SqlAgent;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The library on the module path. Surefire runs this test patched into {@code dev.sqlagent.host}; the
 * second test starts {@link Main} in a JVM of its own with {@code --module-path} and {@code --module} and
 * no class path, so nothing can fall back to the class path unnoticed.
 */
class ModularHostTest {

    @Test
    void thisTestRunsInTheHostModuleAndReadsTheLibraryFromItsModule() {
        assertThat(ModularHostTest.class.getModule().getName()).isEqualTo("dev.sqlagent.host");
        assertThat(SqlAgent.class.getModule().isNamed()).isTrue();
        assertThat(SqlAgent.class.getModule().getName()).isEqualTo("dev.sqlagent.core");
        assertThat(SqlAgent.class.getModule().isExported("dev.sqlagent.internal")).isFalse();
    }

    @Test
    void everyPackageOfTheLibraryIsExportedButItsInternalsAndPrompts() {
        Module core = SqlAgent.class.getModule();
        Set<String> concealed = new TreeSet<>();
        for (String p : core.getPackages()) {
            if (!core.isExported(p)) {
                concealed.add(p);
            }
        }
        // a new API package needs its line in core's module-info; a new internal one goes under internal or, for
        // an engine, under engine (each engine's package, with its generated function catalog, is internal);
        // prompts are resources the library reads itself
        assertThat(concealed)
                .as("packages of dev.sqlagent.core that a host cannot use")
                .allMatch(p -> p.equals("dev.sqlagent.internal") || p.startsWith("dev.sqlagent.internal.")
                        || p.equals("dev.sqlagent.engine") || p.startsWith("dev.sqlagent.engine.")
                        || p.equals("dev.sqlagent.prompts") || p.equals("dev.sqlagent.guard.functions"))
                .contains("dev.sqlagent.internal", "dev.sqlagent.prompts", "dev.sqlagent.engine",
                        "dev.sqlagent.engine.trino");
    }

    @Test
    void aHostStartedOnTheModulePathAnswersAndRejects() throws Exception {
        String classes = System.getProperty("sqlagent.host.classes");
        Path pathFile = Path.of(System.getProperty("sqlagent.host.modulePathFile"));
        String modulePath = classes + File.pathSeparator + Files.readString(pathFile).trim();
        Path output = Path.of(classes).resolveSibling("modular-host-output.txt");

        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--module-path", modulePath, "--module", "dev.sqlagent.host/dev.sqlagent.host.Main");
        pb.environment().remove("CLASSPATH"); // the launcher would use it as the class path
        pb.environment().remove("JDK_JAVA_OPTIONS");
        pb.redirectErrorStream(true).redirectOutput(output.toFile());
        Process process = pb.start();
        boolean exited = process.waitFor(3, TimeUnit.MINUTES);
        if (!exited) {
            process.destroyForcibly();
        }
        String out = Files.readString(output, StandardCharsets.UTF_8);

        assertThat(exited).as("the host exited; its output so far:%n%s", out).isTrue();
        assertThat(process.exitValue()).as("exit status; output:%n%s", out).isZero();
        assertThat(out).contains(
                "class path: (empty)",
                "module of SqlAgent: dev.sqlagent.core",
                "module of dev.sqlagent.testkit.ScriptedLlm: dev.sqlagent.test",
                "module of org.h2.Driver: com.h2database",
                "module of org.sqlite.JDBC: org.xerial.sqlitejdbc",
                "dev.sqlagent.internal exported to the host: false",
                "h2 question: ANSWERED with 4 rows",
                "forbidden question: REJECTED",
                "guard on forbidden SQL: Rejected",
                "sqlite question: ANSWERED with 2 rows (dialect SQLITE)",
                "result: ok");
        // SqliteLimits reaches into sqlite-jdbc by reflection, and warns when it cannot; slf4j warns when
        // no provider is bound
        assertThat(out).doesNotContain("SQLite resource limits not set", "SLF4J(W)", "problem:");
    }
}
