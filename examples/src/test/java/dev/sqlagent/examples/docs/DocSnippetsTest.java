package dev.sqlagent.examples.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.examples.docs.DocSnippets.Failure;
import dev.sqlagent.examples.docs.DocSnippets.Kind;
import dev.sqlagent.examples.docs.DocSnippets.Snippet;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every {@code ```java} block of {@code README.md} and {@code docs/*.md} compiles against this module's
 * test class path (see {@link DocSnippets} for the convention a snippet follows). A failure names the
 * Markdown file and line of each snippet that does not compile.
 */
class DocSnippetsTest {

    @TempDir
    Path classes;

    @Test
    void everyJavaSnippetOfTheDocsCompiles() throws IOException {
        Path root = projectRoot();
        List<Path> files = new ArrayList<>();
        files.add(root.resolve("README.md"));
        try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
        }
        List<Snippet> snippets = new ArrayList<>();
        for (Path f : files) {
            snippets.addAll(DocSnippets.extract(root.relativize(f).toString(),
                    Files.readString(f, StandardCharsets.UTF_8)));
        }
        assertThat(snippets).as("java snippets found in README.md and docs/*.md").hasSizeGreaterThan(10);

        List<Failure> failures = DocSnippets.compile(snippets, classPath(), classes);

        System.out.println("DocSnippetsTest: compiled " + snippets.size() + " java snippets from " + files.size()
                + " Markdown files");
        assertThat(failures)
                .as("java snippets that do not compile (fix the doc; a snippet that shows something wrong on "
                        + "purpose is not tagged java; conventions in DocSnippets):%n%s",
                        failures.stream().map(Failure::toString).collect(Collectors.joining("\n")))
                .isEmpty();
    }

    @Test
    void aSnippetThatDoesNotCompileIsReportedWithItsFileAndLine() throws IOException {
        String markdown = String.join("\n",
                "# A guide",
                "",
                "```java",
                "SqlAgent agent = SqlAgent.builder().build();",
                "```",
                "",
                "<!-- snippet",
                "given: dev.sqlagent.llm.LlmClient model;",
                "-->",
                "```java",
                "SqlAgent agent = SqlAgent.builder()",
                "        .llm(model)",
                "        .noSuchOption(true)",
                "        .build();",
                "```",
                "");
        List<Snippet> snippets = DocSnippets.extract("docs/broken.md", markdown);
        assertThat(snippets).hasSize(2);

        List<Failure> failures = DocSnippets.compile(snippets, classPath(), classes);

        assertThat(failures).hasSize(1);
        assertThat(failures.get(0).toString()).startsWith("docs/broken.md:13: ").contains("noSuchOption");
    }

    @Test
    void snippetsAreReadAsUnitsMembersOrStatements() {
        String markdown = String.join("\n",
                "```java", "import java.util.List;", "class A {}", "```",
                "```java", "@Deprecated", "final class B {}", "```",
                "```java", "@Override", "public String toString() { return \"\"; }", "```",
                "```java", "// a comment", "int x = 1;", "```",
                "```bash", "echo not java", "```",
                "<!-- snippet", "kind: members", "-->", "```java", "int y = 2;", "```");
        List<Snippet> snippets = DocSnippets.extract("t.md", markdown);

        assertThat(snippets).extracting(DocSnippets::kindOf)
                .containsExactly(Kind.UNIT, Kind.UNIT, Kind.MEMBERS, Kind.STATEMENTS, Kind.MEMBERS);
        assertThat(snippets.get(0).line()).isEqualTo(2);
        assertThat(snippets.get(4).line()).isEqualTo(24);
    }

    @Test
    void everyImportButTheJdksAndDevSqlagentsIsShownInTheSnippet() throws IOException {
        String markdown = String.join("\n",
                "<!-- snippet", "given: SqlAgent agent;", "-->",
                "```java", "PrivilegeReport r = agent.audit();", "```",
                "<!-- snippet", "imports: dev.sqlagent.guard.engine.PrivilegeReport", "given: SqlAgent agent;", "-->",
                "```java", "PrivilegeReport r = agent.audit();", "```",
                "<!-- snippet", "given: SqlAgent agent;", "-->",
                "```java", "import dev.sqlagent.guard.engine.PrivilegeReport;", "",
                "PrivilegeReport r = agent.audit();", "List<String> notes = r.notes();", "```");
        List<Snippet> snippets = DocSnippets.extract("i.md", markdown);
        assertThat(snippets).extracting(DocSnippets::kindOf)
                .containsExactly(Kind.STATEMENTS, Kind.STATEMENTS, Kind.STATEMENTS);

        List<Failure> failures = DocSnippets.compile(snippets, classPath(), classes);

        // the first does not compile (the type's package is not imported); the second hides its import;
        // the third shows it, and its lines keep their Markdown numbers
        assertThat(failures).extracting(Failure::toString).anySatisfy(f -> assertThat(f)
                .startsWith("i.md:5: ").contains("PrivilegeReport"));
        assertThat(failures).extracting(Failure::toString).anySatisfy(f -> assertThat(f)
                .startsWith("i.md:7: ").contains("import dev.sqlagent.guard.engine.PrivilegeReport is hidden"));
        assertThat(failures).extracting(Failure::line).doesNotContain(14, 18, 19, 20, 21);
    }

    @Test
    void anErrorInTheGivensPointsAtTheSnippetComment() throws IOException {
        String markdown = String.join("\n",
                "text", "<!-- snippet", "given: NoSuchType model;", "-->", "```java", "int x = 1;", "```");
        List<Failure> failures = DocSnippets.compile(DocSnippets.extract("g.md", markdown), classPath(), classes);

        assertThat(failures).isNotEmpty();
        assertThat(failures.get(0).toString()).startsWith("g.md:2: (in the snippet's imports or givens)");
    }

    /** The full test class path: surefire's own when it reports one, else the JVM's. */
    private static String classPath() {
        String cp = System.getProperty("surefire.test.class.path");
        if (cp == null || cp.isBlank()) {
            cp = System.getProperty("java.class.path");
        }
        return cp;
    }

    static Path projectRoot() {
        String configured = System.getProperty("sqlagent.projectRoot");
        if (configured != null && Files.isRegularFile(Path.of(configured, "README.md"))) {
            return Path.of(configured);
        }
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !(Files.isRegularFile(p.resolve("README.md")) && Files.isDirectory(p.resolve("docs"))
                && Files.isDirectory(p.resolve("core")))) {
            p = p.getParent();
        }
        if (p == null) {
            throw new IllegalStateException("cannot find the project root from " + new File("").getAbsolutePath());
        }
        return p;
    }
}
