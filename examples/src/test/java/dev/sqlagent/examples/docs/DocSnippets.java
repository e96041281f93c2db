package dev.sqlagent.examples.docs;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * Extracts every {@code ```java} block of a Markdown file and compiles it with javac against the test
 * class path, so that a documented snippet that no longer compiles fails the build with its file and line.
 *
 * <p>The convention a documentation writer follows:
 * <ul>
 *   <li>The reader is shown every import but those of the JDK and of {@code dev.sqlagent} itself: the
 *       {@linkplain #DEFAULT_IMPORTS default imports} are only these, and a snippet comment may not hide any
 *       other ({@code imports:} takes {@code java.} and {@code javax.} names only). A type from
 *       {@code dev.sqlagent.guard}, {@code dev.sqlagent.guard.engine}, LangChain4j or Spring is imported in
 *       the block itself, where the reader sees it.</li>
 *   <li>A block whose first code line (after blank and {@code //} lines) is {@code package}, or which is
 *       {@code import} lines followed by a type declaration, is a <b>whole compilation unit</b>: it is
 *       compiled as written, with no import added, so its imports are the ones a reader must copy.</li>
 *   <li>A block that starts with a type declaration ({@code class}, {@code record}, {@code interface},
 *       {@code enum}, with annotations or modifiers before it) is a unit without imports: the default
 *       imports are added.</li>
 *   <li>A block that starts with annotations followed by a method is <b>members</b>: wrapped in a class.</li>
 *   <li>Anything else is <b>statements</b>: wrapped in a method {@code void snippet() throws Exception} of a
 *       class, with the default imports.</li>
 *   <li>A fragment (members or statements) may begin with {@code import} lines: they are compiled as the
 *       fragment's imports, beside the default ones.</li>
 *   <li>What a fragment uses without declaring it is declared in an HTML comment right before the fence
 *       (invisible on the rendered page):
 *       <pre>
 * &lt;!-- snippet
 * imports: dev.sqlagent.langchain4j.*, dev.langchain4j.model.chat.ChatModel
 * given: LlmClient myModel; DataSource readOnlyDataSource;
 * given: void show(ResultTable table) {}
 * kind: members
 * --&gt;</pre>
 *       {@code imports:} adds imports (comma-separated), {@code given:} adds members to the wrapping class
 *       (fields, helper methods), {@code kind:} overrides the detection ({@code unit}, {@code members},
 *       {@code statements}).</li>
 * </ul>
 * Every snippet is compiled in a package of its own ({@code snippets.s<n>}) unless it declares one, so two
 * snippets may define classes of the same name. A snippet that shows something deliberately wrong is not
 * tagged {@code java}.
 */
final class DocSnippets {

    /** Imports added to every snippet that is not a whole compilation unit. */
    static final List<String> DEFAULT_IMPORTS = List.of(
            "java.util.*", "java.util.concurrent.*", "java.time.*", "java.nio.file.Path",
            "java.nio.file.Files", "javax.sql.DataSource", "java.sql.Connection", "java.sql.SQLException",
            "dev.sqlagent.*");

    private static final Pattern FENCE = Pattern.compile("^\\s{0,3}(`{3,}|~{3,})\\s*([^\\s`]*).*$");
    private static final Pattern TYPE_DECL = Pattern.compile(
            "^((public|protected|private|final|abstract|sealed|non-sealed|static|strictfp)\\s+)*"
                    + "(class|interface|enum|record|@interface)\\s+\\w+.*");
    private static final Pattern ANNOTATION_LINE = Pattern.compile("^@[\\w.]+(\\(.*\\))?\\s*$");
    private static final Pattern PUBLIC_TYPE = Pattern.compile(
            "(?m)^public\\s+((final|abstract|sealed|non-sealed|static|strictfp)\\s+)*"
                    + "(class|interface|enum|record|@interface)\\s+(\\w+)");
    private static final Pattern PACKAGE = Pattern.compile("(?m)^\\s*package\\s+([\\w.]+)\\s*;");

    /** How a snippet is compiled. */
    enum Kind { UNIT, MEMBERS, STATEMENTS }

    /**
     * One {@code ```java} block.
     *
     * @param file the Markdown file's name as reported (relative to the project root)
     * @param line the 1-based line of the first code line in the Markdown file
     * @param directiveLine the line of the snippet comment before the fence, or the fence's line
     * @param code the block's text
     * @param imports imports declared in the snippet comment
     * @param givens members declared in the snippet comment
     * @param kind a kind forced by the snippet comment, or null to detect
     */
    record Snippet(String file, int line, int directiveLine, String code, List<String> imports,
            List<String> givens, Kind kind) {
    }

    /** A compile error mapped back to the Markdown. */
    record Failure(String file, int line, String message) {
        @Override
        public String toString() {
            return file + ":" + line + ": " + message;
        }
    }

    private DocSnippets() {
    }

    /**
     * Reads the {@code ```java} blocks of a Markdown text.
     *
     * @param file the name reported in failures
     * @param markdown the text
     * @return the blocks in order
     */
    static List<Snippet> extract(String file, String markdown) {
        List<Snippet> out = new ArrayList<>();
        String[] lines = markdown.split("\r?\n", -1);
        int i = 0;
        while (i < lines.length) {
            Matcher open = FENCE.matcher(lines[i]);
            if (!open.matches()) {
                i++;
                continue;
            }
            String fence = open.group(1);
            String lang = open.group(2).toLowerCase(Locale.ROOT);
            int fenceLine = i;
            int end = i + 1;
            while (end < lines.length && !closes(lines[end], fence)) {
                end++;
            }
            if (lang.equals("java")) {
                StringBuilder code = new StringBuilder();
                for (int k = fenceLine + 1; k < end && k < lines.length; k++) {
                    code.append(lines[k]).append('\n');
                }
                List<String> imports = new ArrayList<>();
                List<String> givens = new ArrayList<>();
                Kind[] kind = {null};
                int directiveLine = readDirective(file, lines, fenceLine, imports, givens, kind);
                out.add(new Snippet(file, fenceLine + 2, directiveLine, code.toString(), imports, givens, kind[0]));
            }
            i = end + 1;
        }
        return out;
    }

    private static boolean closes(String line, String fence) {
        String t = line.strip();
        return t.length() >= fence.length() && t.chars().allMatch(c -> c == fence.charAt(0))
                && line.indexOf(fence.charAt(0)) <= 3;
    }

    /** Reads a {@code <!-- snippet ... -->} comment ending right before the fence; returns its 1-based line. */
    private static int readDirective(String file, String[] lines, int fenceLine, List<String> imports,
            List<String> givens, Kind[] kind) {
        int k = fenceLine - 1;
        while (k >= 0 && lines[k].isBlank()) {
            k--;
        }
        if (k < 0 || !lines[k].strip().endsWith("-->")) {
            return fenceLine + 1;
        }
        int start = k;
        while (start >= 0 && !lines[start].contains("<!--")) {
            start--;
        }
        if (start < 0 || !lines[start].strip().startsWith("<!-- snippet")) {
            return fenceLine + 1;
        }
        StringBuilder body = new StringBuilder();
        for (int j = start; j <= k; j++) {
            body.append(lines[j]).append('\n');
        }
        String text = body.toString().strip();
        text = text.substring("<!-- snippet".length(), text.length() - "-->".length());
        for (String raw : text.split("\n")) {
            String l = raw.strip();
            if (l.isEmpty()) {
                continue;
            }
            if (l.startsWith("imports:")) {
                for (String imp : l.substring("imports:".length()).split(",")) {
                    if (imp.isBlank()) {
                        continue;
                    }
                    imports.add(imp.strip());
                }
            } else if (l.startsWith("given:")) {
                givens.add(l.substring("given:".length()).strip());
            } else if (l.startsWith("kind:")) {
                kind[0] = Kind.valueOf(l.substring("kind:".length()).strip().toUpperCase(Locale.ROOT));
            } else {
                throw new IllegalArgumentException(file + ":" + (start + 1)
                        + ": a snippet comment takes lines 'imports:', 'given:' and 'kind:', not: " + l);
            }
        }
        return start + 1;
    }

    /**
     * Works out how a snippet is compiled.
     *
     * @param s the snippet
     * @return its kind
     */
    static Kind kindOf(Snippet s) {
        if (s.kind() != null) {
            return s.kind();
        }
        boolean annotated = false;
        for (String raw : s.code().split("\n")) {
            String l = raw.strip();
            if (l.isEmpty() || l.startsWith("//") || l.startsWith("/*") || l.startsWith("*")
                    || !annotated && l.startsWith("import ")) {
                continue;
            }
            if (!annotated && l.startsWith("package ")) {
                return Kind.UNIT;
            }
            if (ANNOTATION_LINE.matcher(l).matches()) {
                annotated = true;
                continue;
            }
            if (TYPE_DECL.matcher(l).matches()) {
                return Kind.UNIT;
            }
            return annotated ? Kind.MEMBERS : Kind.STATEMENTS;
        }
        return Kind.STATEMENTS;
    }

    /**
     * Compiles snippets, all in one javac run, each in a package of its own (one by one when that run
     * fails, so that every failing snippet is reported).
     *
     * @param snippets the snippets
     * @param classPath the class path to compile against
     * @param out where the classes go
     * @return the errors, mapped to Markdown lines; empty when everything compiles
     * @throws IOException if the output folder cannot be used
     */
    static List<Failure> compile(List<Snippet> snippets, String classPath, Path out) throws IOException {
        List<Failure> hidden = new ArrayList<>();
        for (Snippet s : snippets) {
            for (String imp : s.imports()) {
                if (!imp.startsWith("java.") && !imp.startsWith("javax.")) {
                    hidden.add(new Failure(s.file(), s.directiveLine(), "import " + imp + " is hidden in the snippet"
                            + " comment; show it in the snippet (only JDK imports may be left out)"));
                }
            }
        }
        List<Failure> compiled = compileAll(snippets, classPath, out);
        if (hidden.isEmpty()) {
            return compiled;
        }
        hidden.addAll(compiled);
        return hidden;
    }

    private static List<Failure> compileAll(List<Snippet> snippets, String classPath, Path out) throws IOException {
        List<Source> sources = new ArrayList<>();
        for (int n = 0; n < snippets.size(); n++) {
            sources.add(Source.of(snippets.get(n), n));
        }
        List<Failure> failures = javac(sources, classPath, out);
        if (failures.isEmpty() || sources.size() == 1) {
            return failures;
        }
        // javac stops before type checking when any file has a syntax error, which would hide the other
        // snippets' errors: compile each one apart to report them all, together with the classes of its own
        // Markdown file that declare a package (a later snippet may use a worked class printed before it)
        List<Failure> all = new ArrayList<>();
        for (Source s : sources) {
            List<Source> unit = new ArrayList<>();
            unit.add(s);
            for (Source other : sources) {
                if (other != s && other.declaresPackage() && other.snippet.file().equals(s.snippet.file())) {
                    unit.add(other);
                }
            }
            for (Failure f : javac(unit, classPath, out)) {
                if (f.file().equals(s.snippet.file()) && s.covers(f.line()) || unit.size() == 1) {
                    all.add(f);
                }
            }
        }
        return all.stream().distinct().toList();
    }

    private static List<Failure> javac(List<Source> sources, String classPath, Path out) throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            throw new IllegalStateException("no system Java compiler: run the tests on a JDK, not a JRE");
        }
        if (sources.isEmpty()) {
            return List.of();
        }
        Files.createDirectories(out);
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, Locale.ROOT, null)) {
            List<String> options = List.of("--release", "17", "-proc:none", "-Xlint:none", "-implicit:none",
                    "-classpath", classPath, "-d", out.toString());
            javac.getTask(null, files, diagnostics, options, null, sources).call();
        }
        List<Failure> failures = new ArrayList<>();
        for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
            if (d.getKind() != Diagnostic.Kind.ERROR) {
                continue;
            }
            Source src = d.getSource() instanceof Source ? (Source) d.getSource() : null;
            String message = d.getMessage(Locale.ROOT).replace('\n', ' ');
            if (src == null) {
                failures.add(new Failure("(javac)", 0, message));
            } else {
                failures.add(src.failure(d.getLineNumber(), message));
            }
        }
        return failures;
    }

    /** A snippet as a Java source in memory, with the map from its lines back to the Markdown. */
    static final class Source extends SimpleJavaFileObject {
        private final Snippet snippet;
        private final String text;
        private final int bodyStart;
        private final int bodyLines;
        private final boolean declaresPackage;

        private Source(URI uri, Snippet snippet, String text, int bodyStart, int bodyLines, boolean declaresPackage) {
            super(uri, Kind.SOURCE);
            this.declaresPackage = declaresPackage;
            this.snippet = snippet;
            this.text = text;
            this.bodyStart = bodyStart;
            this.bodyLines = bodyLines;
        }

        static Source of(Snippet s, int n) {
            DocSnippets.Kind kind = kindOf(s);
            String code = s.code();
            Matcher pkg = PACKAGE.matcher(code);
            boolean ownPackage = kind == DocSnippets.Kind.UNIT && pkg.find();
            String packageName = ownPackage ? pkg.group(1) : "snippets.s" + n;
            StringBuilder head = new StringBuilder();
            if (!ownPackage) {
                head.append("package ").append(packageName).append(";\n");
            }
            boolean explicitImports = kind == DocSnippets.Kind.UNIT && startsWithImportOrPackage(code);
            if (!explicitImports) {
                for (String imp : DEFAULT_IMPORTS) {
                    head.append("import ").append(imp).append(";\n");
                }
            }
            for (String imp : s.imports()) {
                head.append("import ").append(imp).append(";\n");
            }
            if (kind != DocSnippets.Kind.UNIT) {
                // a fragment's own import lines go before the wrapping class; blank lines keep the numbering
                StringBuilder body = new StringBuilder();
                boolean leading = true;
                for (String raw : code.split("\n", -1)) {
                    String l = raw.strip();
                    if (leading && l.startsWith("import ")) {
                        head.append(l).append('\n');
                        body.append('\n');
                    } else {
                        leading = leading && (l.isEmpty() || l.startsWith("//"));
                        body.append(raw).append('\n');
                    }
                }
                code = body.substring(0, body.length() - 1);
            }
            String className = "Snippet";
            StringBuilder tail = new StringBuilder();
            if (kind == DocSnippets.Kind.UNIT) {
                if (!s.givens().isEmpty()) {
                    throw new IllegalArgumentException(s.file() + ":" + s.directiveLine()
                            + ": 'given:' needs a fragment; a whole class declares what it uses");
                }
                Matcher pub = PUBLIC_TYPE.matcher(code);
                if (pub.find()) {
                    className = pub.group(4);
                }
            } else {
                head.append("@SuppressWarnings(\"all\")\nclass Snippet {\n");
                for (String given : s.givens()) {
                    head.append("    ").append(given).append('\n');
                }
                if (kind == DocSnippets.Kind.STATEMENTS) {
                    head.append("    void snippet() throws Exception {\n");
                    tail.append("    }\n");
                }
                tail.append("}\n");
            }
            String headText = head.toString();
            int bodyStart = (int) headText.chars().filter(c -> c == '\n').count() + 1;
            int bodyLines = (int) code.chars().filter(c -> c == '\n').count();
            String text = headText + code + tail;
            URI uri = URI.create("string:///" + packageName.replace('.', '/') + "/" + className + ".java");
            return new Source(uri, s, text, bodyStart, bodyLines, ownPackage);
        }

        private static boolean startsWithImportOrPackage(String code) {
            for (String raw : code.split("\n")) {
                String l = raw.strip();
                if (l.isEmpty() || l.startsWith("//")) {
                    continue;
                }
                return l.startsWith("package ") || l.startsWith("import ");
            }
            return false;
        }

        boolean declaresPackage() {
            return declaresPackage;
        }

        /** Whether a Markdown line is this snippet's (its code or its snippet comment). */
        boolean covers(int markdownLine) {
            return markdownLine == snippet.directiveLine()
                    || markdownLine >= snippet.line() && markdownLine < snippet.line() + bodyLines;
        }

        Failure failure(long javaLine, String message) {
            if (javaLine >= bodyStart && javaLine < bodyStart + bodyLines) {
                return new Failure(snippet.file(), (int) (snippet.line() + javaLine - bodyStart), message);
            }
            // an error in the added imports or givens: point at the snippet comment (or the fence)
            return new Failure(snippet.file(), snippet.directiveLine(), "(in the snippet's imports or givens) "
                    + message);
        }

        @Override
        public CharSequence getCharContent(boolean ignoreEncodingErrors) {
            return text;
        }
    }
}
