package dev.sqlagent.testing;

import dev.sqlagent.execution.UrlDataSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.sql.DataSource;

/**
 * Finds the project's shared data ({@code ../shared/data} beside the reactor root) and opens the Spider
 * dev SQLite databases read-only.
 *
 * <p>The reactor root comes from the system property {@code sqlagent.projectRoot} (set by surefire);
 * without it, directories are searched upwards from {@code user.dir} for a {@code shared/data} sibling or
 * child. A test that needs the data and cannot find it fails: the data is part of the checkout.
 */
public final class SharedData {

    private SharedData() {
    }

    /**
     * @return the {@code shared/data} directory
     * @throws IllegalStateException naming where it looked when it is not found
     */
    public static Path dataDir() {
        String root = System.getProperty("sqlagent.projectRoot");
        if (root != null && !root.isBlank()) {
            Path p = Paths.get(root).toAbsolutePath().normalize().resolveSibling("shared").resolve("data");
            if (Files.isDirectory(p)) {
                return p;
            }
        }
        Path start = Paths.get(System.getProperty("user.dir")).toAbsolutePath().normalize();
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            for (Path candidate : List.of(dir.resolve("shared").resolve("data"),
                    dir.resolveSibling("shared").resolve("data"))) {
                if (Files.isDirectory(candidate.resolve("spider-dev"))) {
                    return candidate;
                }
            }
        }
        throw new IllegalStateException("shared data not found: sqlagent.projectRoot=" + root
                + ", searched upwards from " + start + " for shared/data");
    }

    /** @return the Spider dev directory ({@code README.md}, {@code sqlite/}, {@code postgres/}, …) */
    public static Path spiderDir() {
        return dataDir().resolve("spider-dev");
    }

    /** @return the ids of the Spider databases that have a SQLite file, sorted */
    public static List<String> spiderDbIds() {
        try (Stream<Path> files = Files.list(spiderDir().resolve("sqlite"))) {
            return files.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".sqlite"))
                    .map(n -> n.substring(0, n.length() - ".sqlite".length()))
                    .sorted()
                    .collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * @param dbId a Spider database id, e.g. {@code concert_singer}
     * @return a JDBC URL that opens its SQLite file read-only (the file is shared; nobody writes it)
     * @throws IllegalArgumentException if there is no such file
     */
    public static String sqliteUrl(String dbId) {
        Path file = spiderDir().resolve("sqlite").resolve(dbId + ".sqlite");
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("no SQLite database " + file);
        }
        return "jdbc:sqlite:file:" + file + "?mode=ro";
    }

    /** @param dbId a Spider database id  @return a data source over its SQLite file, read-only */
    public static DataSource sqlite(String dbId) {
        return new UrlDataSource(sqliteUrl(dbId), null, null);
    }
}
