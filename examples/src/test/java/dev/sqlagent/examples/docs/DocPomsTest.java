package dev.sqlagent.examples.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;

/**
 * The Maven snippets ({@code ```xml} blocks) of {@code README.md} and {@code docs/*.md} hold what a new
 * project needs on Maven 3.8, where they were tried from an empty project (docs/adoption-check.md): each is
 * well-formed; a block that sets {@code maven.compiler.release} pins a compiler plugin that knows it (Maven
 * 3.8's default, 3.1, fails with "Source option 5 is no longer supported"); a whole {@code <project>} with
 * JUnit 5 pins a Surefire that runs it (the default, 2.12.4, runs no test and reports success); the BOM is
 * imported at this build's version; the MCP SDK client is the version the server is built with.
 */
class DocPomsTest {

    private static final Pattern FENCE = Pattern.compile("(?ms)^```xml\\n(.*?)^```");

    /** A {@code ```xml} block and where it starts. */
    record Block(String file, int line, String xml) {
        @Override
        public String toString() {
            return file + ":" + line;
        }
    }

    static List<Block> blocks(String file, String markdown) {
        List<Block> out = new ArrayList<>();
        Matcher m = FENCE.matcher(markdown);
        while (m.find()) {
            int line = (int) markdown.substring(0, m.start()).chars().filter(c -> c == '\n').count() + 2;
            out.add(new Block(file, line, m.group(1)));
        }
        return out;
    }

    /** {@return what is wrong with a block, one line each; empty when nothing is} */
    static List<String> problems(Block b, String projectVersion, String mcpSdkVersion) {
        List<String> out = new ArrayList<>();
        Element root;
        try {
            String text = b.xml().strip();
            boolean whole = text.startsWith("<project");
            Document d = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                    .parse(new InputSource(new StringReader(whole ? text : "<fragment>" + text + "</fragment>")));
            root = d.getDocumentElement();
        } catch (Exception e) {
            out.add(b + ": not well-formed XML: " + e.getMessage());
            return out;
        }
        boolean project = root.getTagName().equals("project");
        if (!elements(root, "maven.compiler.release").isEmpty()) {
            String v = pluginVersion(root, "maven-compiler-plugin");
            if (v == null || compare(v, "3.6") < 0) {
                out.add(b + ": sets maven.compiler.release but pins no maven-compiler-plugin 3.6 or later (was " + v
                        + "); Maven 3.8's default fails with \"Source option 5 is no longer supported\"");
            }
        }
        if (project && dependencies(root).stream().anyMatch(d -> text(d, "artifactId").equals("junit-jupiter"))) {
            String v = pluginVersion(root, "maven-surefire-plugin");
            if (v == null || compare(v, "3.0") < 0) {
                out.add(b + ": a project with JUnit 5 pins no maven-surefire-plugin 3.0 or later (was " + v
                        + "); Maven 3.8's default runs no JUnit 5 test and reports success");
            }
        }
        for (Element d : dependencies(root)) {
            String group = text(d, "groupId");
            String artifact = text(d, "artifactId");
            String version = text(d, "version");
            if (artifact.equals("sqlagent-bom") && !version.equals(projectVersion)) {
                out.add(b + ": imports sqlagent-bom " + version + ", the build is " + projectVersion);
            }
            if (group.equals("io.modelcontextprotocol.sdk") && !version.equals(mcpSdkVersion)) {
                out.add(b + ": names " + group + ":" + artifact + " " + version + ", the server is built with "
                        + mcpSdkVersion);
            }
        }
        return out;
    }

    private static List<Element> elements(Element root, String tag) {
        List<Element> out = new ArrayList<>();
        NodeList all = root.getElementsByTagName(tag);
        for (int i = 0; i < all.getLength(); i++) {
            out.add((Element) all.item(i));
        }
        if (root.getTagName().equals(tag)) {
            out.add(root);
        }
        return out;
    }

    private static List<Element> dependencies(Element root) {
        return elements(root, "dependency");
    }

    private static String pluginVersion(Element root, String artifactId) {
        for (Element p : elements(root, "plugin")) {
            if (text(p, "artifactId").equals(artifactId)) {
                String v = text(p, "version");
                return v.isEmpty() ? null : v;
            }
        }
        return null;
    }

    /** {@return the text of a direct child element, or ""} */
    private static String text(Element e, String child) {
        for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element && ((Element) n).getTagName().equals(child)) {
                return n.getTextContent().strip();
            }
        }
        return "";
    }

    /** Compares dotted numeric versions (a non-numeric part counts as 0). */
    static int compare(String a, String b) {
        String[] x = a.split("[.-]");
        String[] y = b.split("[.-]");
        for (int i = 0; i < Math.max(x.length, y.length); i++) {
            int c = Integer.compare(number(x, i), number(y, i));
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    private static int number(String[] parts, int i) {
        try {
            return i < parts.length ? Integer.parseInt(parts[i]) : 0;
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    @Test
    void everyMavenSnippetOfTheDocsHoldsWhatANewProjectNeeds() throws IOException {
        Path root = DocSnippetsTest.projectRoot();
        List<Path> files = new ArrayList<>();
        files.add(root.resolve("README.md"));
        try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
        }
        String projectVersion = property(root.resolve("pom.xml"), "<version>([^<]+)</version>");
        String mcpSdkVersion = property(root.resolve("integrations/mcp/pom.xml"),
                "<mcp-sdk.version>([^<]+)</mcp-sdk.version>");
        List<Block> blocks = new ArrayList<>();
        for (Path f : files) {
            blocks.addAll(blocks(root.relativize(f).toString(), Files.readString(f, StandardCharsets.UTF_8)));
        }
        assertThat(blocks).as("xml snippets in the docs").hasSizeGreaterThan(5);
        List<String> problems = new ArrayList<>();
        for (Block b : blocks) {
            problems.addAll(problems(b, projectVersion, mcpSdkVersion));
        }
        assertThat(problems).as("Maven snippets that would trip a new project").isEmpty();
        // the two whole builds a new user copies: the first steps and the test kit's
        assertThat(blocks).filteredOn(b -> b.file().equals("docs/testing.md") && b.xml().strip().startsWith("<project"))
                .hasSize(1);
        assertThat(blocks).filteredOn(b -> b.file().equals("docs/getting-started.md")
                && b.xml().contains("maven-surefire-plugin") && b.xml().contains("maven-compiler-plugin")).hasSize(1);
    }

    @Test
    void aProjectThatPinsOnlySurefireOrAnOldBomIsReported() {
        String markdown = String.join("\n", "# t", "",
                "```xml",
                "<project>",
                "  <properties><maven.compiler.release>17</maven.compiler.release></properties>",
                "  <dependencyManagement><dependencies><dependency><groupId>dev.sqlagent</groupId>",
                "    <artifactId>sqlagent-bom</artifactId><version>0.0.9</version></dependency></dependencies>",
                "  </dependencyManagement>",
                "  <dependencies><dependency><groupId>org.junit.jupiter</groupId>",
                "    <artifactId>junit-jupiter</artifactId><version>5.11.4</version></dependency></dependencies>",
                "  <build><plugins><plugin><artifactId>maven-surefire-plugin</artifactId><version>2.12.4</version>",
                "  </plugin></plugins></build>",
                "</project>",
                "```",
                "```xml",
                "<dependency><groupId>io.modelcontextprotocol.sdk</groupId><artifactId>mcp</artifactId>",
                "<version>0.9.0</version></dependency>",
                "```",
                "```xml",
                "<dependency><groupId>a</groupId>",
                "```");
        List<Block> blocks = blocks("t.md", markdown);
        assertThat(blocks).extracting(Block::line).containsExactly(4, 16, 20);
        List<String> problems = new ArrayList<>();
        blocks.forEach(b -> problems.addAll(problems(b, "0.1.0-SNAPSHOT", "2.1.0")));
        assertThat(problems).hasSize(5);
        assertThat(problems.get(0)).startsWith("t.md:4: sets maven.compiler.release");
        assertThat(problems.get(1)).startsWith("t.md:4: a project with JUnit 5").contains("was 2.12.4");
        assertThat(problems.get(2)).startsWith("t.md:4: imports sqlagent-bom 0.0.9");
        assertThat(problems.get(3)).startsWith("t.md:16: names io.modelcontextprotocol.sdk:mcp 0.9.0");
        assertThat(problems.get(4)).startsWith("t.md:20: not well-formed XML");
        assertThat(compare("3.14.1", "3.6")).isPositive();
        assertThat(compare("3.5.4", "3.0")).isPositive();
        assertThat(compare("2.22.2", "3.0")).isNegative();
    }

    private static String property(Path pom, String regex) throws IOException {
        String text = Files.readString(pom, StandardCharsets.UTF_8);
        // the project's own version: the first <version> after its artifactId (the root pom has no parent)
        Matcher m = Pattern.compile(regex).matcher(text);
        if (!m.find()) {
            throw new IllegalStateException(pom + " has no " + regex);
        }
        return m.group(1).strip();
    }
}
