package dev.sqlagent.examples.cli;

import java.io.IOException;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.reader.impl.DefaultParser;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;

/**
 * {@link LineInput} on a terminal through JLine: line editing, history in memory. Kept apart so that
 * JLine is loaded only when standard input is a terminal.
 */
final class JlineInput {

    private JlineInput() {
    }

    /** @return the process's terminal, or null when JLine finds none it can drive */
    static LineInput system() {
        try {
            // dumb(false): a terminal JLine cannot drive is no better than plain reading
            return of(TerminalBuilder.builder().name("sqlagent").system(true).dumb(false).build());
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * Lines from a JLine terminal. A question is taken as typed: no quote or escape handling (an
     * apostrophe opens nothing) and no {@code !} history expansion. Ctrl-C drops the line being typed,
     * Ctrl-D on an empty line ends the input.
     */
    static LineInput of(Terminal terminal) {
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
}
