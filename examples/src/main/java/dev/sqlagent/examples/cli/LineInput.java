package dev.sqlagent.examples.cli;

import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.reader.impl.DefaultParser;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;

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
     * prompts on {@code prompts} when JLine finds no usable terminal.
     */
    static LineInput systemTerminal(PrintStream prompts) {
        Terminal terminal;
        try {
            // dumb(false): a terminal JLine cannot drive is no better than plain reading, and says so less loudly
            terminal = TerminalBuilder.builder().name("sqlagent").system(true).dumb(false).build();
        } catch (IOException | RuntimeException e) {
            return plain(System.in, prompts);
        }
        return jline(terminal);
    }

    /**
     * Lines from a JLine terminal. A question is taken as typed: no quote or escape handling (an
     * apostrophe opens nothing) and no {@code !} history expansion. Ctrl-C drops the line being typed,
     * Ctrl-D on an empty line ends the input.
     */
    static LineInput jline(Terminal terminal) {
        DefaultParser parser = new DefaultParser().quoteChars(new char[0]).escapeChars(new char[0]);
        parser.eofOnUnclosedQuote(false);
        LineReader reader = LineReaderBuilder.builder().terminal(terminal).appName("sqlagent").parser(parser)
                .option(LineReader.Option.DISABLE_EVENT_EXPANSION, true)
                .option(LineReader.Option.INSERT_TAB, true)
                .build();
        return new LineInput() {
            @Override
            String read(String prompt) {
                while (true) {
                    try {
                        return reader.readLine(prompt);
                    } catch (UserInterruptException e) {
                        // Ctrl-C: the line is dropped, the conversation goes on
                    } catch (EndOfFileException e) {
                        return null;
                    }
                }
            }

            @Override
            public void close() throws IOException {
                terminal.close();
            }
        };
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
