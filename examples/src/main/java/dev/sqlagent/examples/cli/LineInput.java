package dev.sqlagent.examples.cli;

import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Where the interactive {@code ask} reads its questions: plain lines from a stream (a pipe, a file, a
 * test), or a terminal with line editing and history (JLine) when standard input is one. History is
 * kept in memory only: questions may name what they are about, and nothing is written to disk.
 */
abstract class LineInput implements Closeable {

    /** The prompt shown on a terminal. */
    static final String PROMPT = "sqlagent> ";

    /**
     * @param prompt shown before reading, when this input shows prompts
     * @return the next line, or null at the end of input
     * @throws IOException when reading fails
     */
    abstract String read(String prompt) throws IOException;

    @Override
    public void close() throws IOException {
    }

    /**
     * Plain lines, UTF-8.
     *
     * @param in the stream
     * @param prompts where to show the prompt, or null for none (a pipe)
     */
    static LineInput plain(InputStream in, PrintStream prompts) {
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        return new LineInput() {
            @Override
            String read(String prompt) throws IOException {
                if (prompts != null) {
                    prompts.print(prompt);
                    prompts.flush();
                }
                return reader.readLine();
            }
        };
    }

    /**
     * The process's terminal with JLine's line editing, or plain reading of {@code System.in} with
     * prompts on {@code prompts} when JLine finds no usable terminal. JLine's classes are loaded only here.
     */
    static LineInput systemTerminal(PrintStream prompts) {
        LineInput jline = JlineInput.system();
        return jline != null ? jline : plain(System.in, prompts);
    }

    /**
     * Whether standard input and output are a terminal: {@code System.console()} is non-null and, on Java
     * 22 and later (where it is non-null for pipes too), {@code Console.isTerminal()} says so.
     */
    static boolean stdinIsTerminal() {
        java.io.Console c = System.console();
        if (c == null) {
            return false;
        }
        try {
            return (Boolean) java.io.Console.class.getMethod("isTerminal").invoke(c);
        } catch (ReflectiveOperationException e) {
            return true; // before Java 22 a console exists only for a terminal
        }
    }
}
