package dev.sqlagent.examples.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;

/** Writes one JSON object per line with jackson-core's streaming generator. */
final class JsonLines {

    private static final JsonFactory JSON = new JsonFactory();

    /** Writes the fields of one object. */
    @FunctionalInterface
    interface Body {
        void write(JsonGenerator g) throws IOException;
    }

    private JsonLines() {
    }

    static void print(PrintStream out, Body body) {
        out.println(object(body));
        out.flush();
    }

    /** One object holding the fields the body writes, on one line. */
    static String object(Body body) {
        StringWriter w = new StringWriter();
        try (JsonGenerator g = JSON.createGenerator(w)) {
            g.writeStartObject();
            body.write(g);
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return w.toString();
    }
}
