package dev.sqlagent.engine;

import dev.sqlagent.guard.FunctionClass;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * Reading an engine's function list: the generated {@code functions.tsv} in the engine's own resource folder
 * ({@code dev/sqlagent/engine/<engine>/functions.tsv}, written by {@code FunctionCatalogGenerator}), and the
 * hand-written lists of engines without a server in CI.
 */
public final class FunctionTable {

    /** The file name of an engine's generated function list, beside its classes. */
    public static final String FILE = "functions.tsv";

    private FunctionTable() {
    }

    /**
     * @param owner a class of the engine's package, whose resource folder holds {@link #FILE}
     * @return the list: lower-case name to class
     * @throws IllegalStateException if the file is missing or malformed (a build fault)
     */
    public static Map<String, FunctionClass> read(Class<?> owner) {
        String resource = owner.getPackageName().replace('.', '/') + "/" + FILE;
        Map<String, FunctionClass> out = new HashMap<>();
        try (InputStream in = owner.getResourceAsStream(FILE)) {
            if (in == null) {
                throw new IllegalStateException("the function catalog " + resource + " is missing from the build");
            }
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            int lineNo = 0;
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                lineNo++;
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] parts = line.split("\t");
                if (parts.length < 2) {
                    throw new IllegalStateException(resource + ":" + lineNo + ": expected name<TAB>class");
                }
                try {
                    out.put(parts[0], FunctionClass.valueOf(parts[1]));
                } catch (IllegalArgumentException e) {
                    throw new IllegalStateException(resource + ":" + lineNo + ": unknown class " + parts[1], e);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the function catalog " + resource, e);
        }
        return out;
    }

    /**
     * @param lists per class, the names of its functions separated by single spaces
     * @return name to class
     */
    public static Map<String, FunctionClass> classes(Map<FunctionClass, String> lists) {
        Map<String, FunctionClass> out = new HashMap<>();
        for (Map.Entry<FunctionClass, String> e : lists.entrySet()) {
            for (String n : e.getValue().split(" ")) {
                out.put(n, e.getKey());
            }
        }
        return out;
    }

    /**
     * @param kv names and what to write instead, alternating
     * @return name to advice
     */
    public static Map<String, String> pairs(String... kv) {
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return Map.copyOf(m);
    }
}
