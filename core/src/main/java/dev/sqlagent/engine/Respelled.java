package dev.sqlagent.engine;

import java.util.Set;

/**
 * What an engine's respelling ({@link EngineGuard#respell}) gives the guard: the lexing the parser reads, the
 * markers the parser holds in place of syntax it does not read (each taken off the tree by the analysis and put
 * back for the printing), and how the printing is spelled back for the engine.
 */
public interface Respelled {

    /** @return the lexing to parse (its violation, if any, refuses the statement) */
    SqlLexer.Result lexed();

    /**
     * @param printed the guard's printing of the checked statement
     * @return the statement as the engine is to run it, or null when the printing does not hold exactly what
     *     was respelled (the statement is refused with {@link #unprintable()})
     */
    default String forEngine(String printed) {
        return printed;
    }

    /** {@return why the statement is refused when {@link #forEngine} gives null} */
    default String unprintable() {
        return "the statement could not be printed back exactly";
    }

    /** {@return the folded table names of the sample clauses held as markers (DuckDB's {@code USING SAMPLE})} */
    default Set<String> sampleMarkers() {
        return Set.of();
    }

    /** {@return whether the statement's lambdas were written {@code lambda x: …}, which reads as nothing else} */
    default boolean lambdasSpelled() {
        return false;
    }

    /** {@return how many full-text {@code MATCH} operators were respelled as {@code MATCH_ANY}} */
    default int matches() {
        return 0;
    }

    /** {@return how many select options ({@code SQL_NO_CACHE …}) the parser holds as markers} */
    default int selectOptions() {
        return 0;
    }

    /**
     * @param folded a lower-case name the parser read
     * @return the number of the select-options marker it is, or -1
     */
    default int selectOptionsMarker(String folded) {
        return -1;
    }

    /** {@return how many index hints' clauses the parser holds as markers} */
    default int indexHints() {
        return 0;
    }

    /**
     * @param folded a lower-case index name the parser read
     * @return the number of the index-hint marker it is, or -1
     */
    default int indexHintMarker(String folded) {
        return -1;
    }

    /**
     * @param marker a number {@link #indexHintMarker} gave
     * @return the hint's clause the marker holds ({@code KEY}, {@code FOR ORDER BY} …)
     */
    default String indexHint(int marker) {
        throw new IndexOutOfBoundsException(marker);
    }

    /**
     * @param lexed a lexing
     * @return it, respelled for nothing
     */
    static Respelled none(SqlLexer.Result lexed) {
        return () -> lexed;
    }
}
