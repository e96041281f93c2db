package dev.sqlagent.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * An engine is one package: shared code never names an engine, and engines never reach into each other.
 *
 * <p>The test reads core's main sources with comments, string and character literals blanked (a message may
 * name an engine; code may not) and looks for what names an engine in code: a {@code Dialect} constant (qualified,
 * or bare in a {@code case} label), {@code isMySqlFamily()}, an import of or reference to an engine package, a type
 * whose name begins with an engine's name. Only the engine's own package, {@code Dialect} (the constants themselves)
 * and {@link Engines} (the one line per engine) may.
 */
class EngineArchitectureTest {

    private static final Path MAIN = Path.of("src/main/java");
    private static final Path ENGINE = MAIN.resolve("dev/sqlagent/engine");
    /** Dialect constants that name an engine ({@code GENERIC} names none: it is the engine the library does not know). */
    private static final String ENGINE_NAMES = "H2|SQLITE|POSTGRESQL|MYSQL|MARIADB|DUCKDB|SQLSERVER|ORACLE|TRINO";
    private static final Pattern NAMES_AN_ENGINE = Pattern.compile(
            "\\bDialect\\s*\\.\\s*(?:" + ENGINE_NAMES + ")\\b"
            + "|\\bcase\\s+(?:" + ENGINE_NAMES + ")\\b"
            + "|\\bisMySqlFamily\\b"
            + "|\\bdev\\.sqlagent\\.engine\\.(?!Engine\\b|Engines\\b|EngineGuard\\b|EngineDatabase\\b)[a-z0-9]+\\b"
            // a type named after an engine, but JSqlParser's own node types (net.sf.jsqlparser.…PostgresNamed…)
            + "|(?<![.\\w])(?:Pg|Postgres|Sqlite|SQLite|MariaDb|MySql|DuckDb|H2|Trino)[A-Z][A-Za-z0-9]*\\b");
    private static final Set<Path> REGISTRATION = Set.of(
            MAIN.resolve("dev/sqlagent/Dialect.java"), ENGINE.resolve("Engines.java"),
            // public API that is one engine's by design, kept where users find it: CSV and Parquet files as DuckDB
            // tables (it builds DuckDB's own statements); the engine's behaviour behind it is in engine.duckdb
            MAIN.resolve("dev/sqlagent/execution/DuckDbFiles.java"));

    @Test
    void sharedCodeNamesNoEngine() throws IOException {
        List<String> found = new ArrayList<>();
        for (Path file : sources(MAIN)) {
            if (REGISTRATION.contains(file) || enginePackage(file) != null) {
                continue;
            }
            String code = codeOnly(Files.readString(file, StandardCharsets.UTF_8));
            Matcher m = NAMES_AN_ENGINE.matcher(code);
            while (m.find()) {
                found.add(MAIN.relativize(file) + ":" + line(code, m.start()) + ": " + m.group());
            }
        }
        assertThat(found).as("shared code naming an engine (move the branch behind Engine)").isEmpty();
    }

    @Test
    void enginesDoNotReachIntoEachOther() throws IOException {
        List<String> found = new ArrayList<>();
        Pattern other = Pattern.compile("\\bdev\\.sqlagent\\.engine\\.([a-z0-9]+)\\.");
        for (Path file : sources(ENGINE)) {
            String own = enginePackage(file);
            if (own == null) {
                continue;
            }
            Matcher m = other.matcher(codeOnly(Files.readString(file, StandardCharsets.UTF_8)));
            while (m.find()) {
                if (!m.group(1).equals(own)) {
                    found.add(MAIN.relativize(file) + ": " + m.group());
                }
            }
        }
        assertThat(found).as("an engine package using another's").isEmpty();
    }

    @Test
    void everyEnginePackageIsRegistered() throws IOException {
        Set<String> packages = new TreeSet<>();
        try (Stream<Path> s = Files.list(ENGINE)) {
            s.filter(Files::isDirectory).forEach(p -> packages.add(p.getFileName().toString()));
        }
        String registry = Files.readString(ENGINE.resolve("Engines.java"), StandardCharsets.UTF_8);
        for (String p : packages) {
            assertThat(registry).as("Engines registers dev.sqlagent.engine." + p)
                    .contains("import dev.sqlagent.engine." + p + ".");
        }
        assertThat(packages).contains("h2", "sqlite", "postgres", "mariadb", "duckdb", "generic");
    }

    /** The engine package a file belongs to, or null for shared code (including the engine package's root). */
    private static String enginePackage(Path file) {
        if (!file.startsWith(ENGINE) || file.getParent().equals(ENGINE)) {
            return null;
        }
        return ENGINE.relativize(file).getName(0).toString();
    }

    private static List<Path> sources(Path root) {
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int line(String text, int offset) {
        int n = 1;
        for (int i = 0; i < offset; i++) {
            if (text.charAt(i) == '\n') {
                n++;
            }
        }
        return n;
    }

    /** Java source with comments, text blocks, strings and character literals blanked; line breaks kept. */
    static String codeOnly(String src) {
        StringBuilder out = new StringBuilder(src.length());
        int i = 0;
        int n = src.length();
        while (i < n) {
            char c = src.charAt(i);
            if (c == '/' && i + 1 < n && src.charAt(i + 1) == '/') {
                while (i < n && src.charAt(i) != '\n') {
                    out.append(' ');
                    i++;
                }
            } else if (c == '/' && i + 1 < n && src.charAt(i + 1) == '*') {
                int end = src.indexOf("*/", i + 2);
                end = end < 0 ? n : end + 2;
                blank(src, i, end, out);
                i = end;
            } else if (src.startsWith("\"\"\"", i)) {
                int end = src.indexOf("\"\"\"", i + 3);
                end = end < 0 ? n : end + 3;
                blank(src, i, end, out);
                i = end;
            } else if (c == '"' || c == '\'') {
                int j = i + 1;
                while (j < n && src.charAt(j) != c && src.charAt(j) != '\n') {
                    j += src.charAt(j) == '\\' ? 2 : 1;
                }
                int end = Math.min(n, j + 1);
                blank(src, i, end, out);
                i = end;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    private static void blank(String src, int from, int to, StringBuilder out) {
        for (int k = from; k < to; k++) {
            out.append(src.charAt(k) == '\n' ? '\n' : ' ');
        }
    }
}
