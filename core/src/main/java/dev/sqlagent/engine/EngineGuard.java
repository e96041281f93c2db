package dev.sqlagent.engine;

import dev.sqlagent.guard.FunctionClass;
import dev.sqlagent.internal.Identifiers;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The guard's side of an {@link Engine}: how its SQL is read without a database. The shared analysis
 * ({@code dev.sqlagent.guard}) calls these hooks where engines differ and nowhere names an engine.
 *
 * <p>Each hook states one fact about the engine's SQL. The defaults describe an engine the library has no
 * server for (ANSI SQL, read as strictly as the guard can): a new engine overrides what it reads otherwise,
 * and the shared analysis follows. Every hook is cheap and side-effect free; the guard calls them on every
 * statement.
 */
public interface EngineGuard {

    // ------------------------------------------------------------------------------------------------ naming

    /** {@return the engine's name in the guard's messages ("PostgreSQL", "SQL Server", "The database")} */
    String name();

    /** {@return the engine's name in the model's prompts} */
    default String promptName() {
        return name();
    }

    /** {@return one line of advice on the engine's SQL for the model's prompts, or empty} */
    default String promptHints() {
        return "";
    }

    // ------------------------------------------------------------------------------------------------ names

    /** {@return the rule column names, column aliases and CTE names compare by (default settings)} */
    Identifiers.Rule columnRule();

    /** {@return the rule table aliases and the table names that qualify columns compare by} */
    default Identifiers.Rule tableAliasRule() {
        return columnRule();
    }

    /**
     * @param tableAlias whether the names are table aliases (else columns, column aliases, CTE names)
     * @return the other rules a database setting the guard cannot see may switch such names to
     */
    default List<Identifiers.Rule> alternativeRules(boolean tableAlias) {
        return List.of();
    }

    /** {@return whether a table name is allowed as written (exact case), not as folded} */
    default boolean tableNamesExact() {
        return false;
    }

    /** {@return whether {@code db.alias.column} may qualify a column through a table's alias} */
    default boolean schemaQualifiesAlias() {
        return false;
    }

    /**
     * @param word a word the parser takes for a keyword
     * @return it quoted so that the engine reads the same name as the bare word
     */
    default String quoteAsBareName(String word) {
        return "\"" + word + "\"";
    }

    /** {@return the system columns the engine adds to every table, lower case} */
    default Set<String> systemColumns() {
        return Set.of("tableoid", "ctid", "xmin", "xmax", "cmin", "cmax", "oid", "rowid", "_rowid_", "_rowid",
                "rownum", "ora_rowscn");
    }

    /** {@return whether a table's name used as a value is its whole row} */
    default boolean tableNameIsRowValue() {
        return true;
    }

    /**
     * @param i the column's position, from 1
     * @return the name the engine gives a {@code VALUES} list's column
     */
    default String valuesColumnName(int i) {
        return "column" + i;
    }

    /**
     * Whether a parenthesised {@code VALUES} list is read as an item of {@code FROM}: its rows are analysed as the
     * expressions they are (seeing the queries around the statement, not the items beside it), its columns named
     * by its alias list, else by {@link #valuesColumnName}. Anywhere else a {@code VALUES} list stays refused.
     *
     * @return whether it is read
     */
    default boolean valuesInFrom() {
        return false;
    }

    /** {@return whether an unaliased call is named after its function and any other expression {@code ?column?}} */
    default boolean namesItemsByFunction() {
        return false;
    }

    /** {@return whether a join's {@code ON} condition sees every item of the {@code FROM} clause} */
    default boolean joinConditionsSeeWholeFrom() {
        return false;
    }

    /** {@return whether a double-quoted name no column has is read as a string, so is no unknown column} */
    default boolean doubleQuotedMayBeString() {
        return false;
    }

    /** {@return whether {@code a.b.c}, with no table {@code a.b} in scope, is field c of column b of table a} */
    default boolean dottedFieldAccess() {
        return false;
    }

    /**
     * {@return whether the engine has FTS5 full-text tables: {@code t MATCH 'q'} over a table's hidden column of
     * its name, and the auxiliary functions {@code bm25}, {@code highlight}, {@code snippet}}
     */
    default boolean fts5() {
        return false;
    }

    /**
     * @param f a call
     * @return its name, lower case, when it is a full-text auxiliary function ({@link #fts5()}) called by its bare
     *     name; else null
     */
    default String fullTextFunction(net.sf.jsqlparser.expression.Function f) {
        return null;
    }

    /**
     * @param name a lower-case function name
     * @return whether it is a full-text auxiliary function ({@link #fts5()})
     */
    default boolean isFullTextFunction(String name) {
        return false;
    }

    /**
     * @param name a full-text auxiliary function
     * @return how many arguments it takes, or a negative number when it takes any number (at least one)
     */
    default int fullTextArity(String name) {
        return -1;
    }

    /**
     * @param name a full-text auxiliary function
     * @return the positions (from 0) of its marker arguments: the strings it inserts into the text
     */
    default Set<Integer> fullTextMarkers(String name) {
        return Set.of();
    }

    /** {@return the longest marker string a full-text auxiliary function may insert} */
    default int maxFullTextMarker() {
        return 0;
    }

    /**
     * @param tf a table function in {@code FROM}
     * @return why it is refused, or null when it is a bounded generator the engine reads (which reads nothing
     *     but its constants)
     */
    default String tableFunctionProblem(net.sf.jsqlparser.statement.select.TableFunction tf) {
        return "table functions are not allowed in FROM";
    }

    /**
     * Whether a table function in {@code FROM} expands the values of its arguments into rows (Trino's
     * {@code UNNEST}): then, when {@link #tableFunctionProblem} finds nothing wrong with it, its arguments are
     * analysed as the expressions they are, seeing the {@code FROM} items before it (as a lateral derived table
     * does), and its output columns are exactly the names its alias lists (none without a list), bound by it only.
     *
     * @param tf a table function in {@code FROM}
     * @return whether it is such an expansion
     */
    default boolean expandsArguments(net.sf.jsqlparser.statement.select.TableFunction tf) {
        return false;
    }

    /**
     * @param tf a bounded generator ({@link #tableFunctionProblem} null)
     * @return how many rows it makes
     */
    default java.math.BigInteger generatedRows(net.sf.jsqlparser.statement.select.TableFunction tf) {
        return java.math.BigInteger.ZERO;
    }

    /**
     * @param tf a table function in {@code FROM}
     * @return the bounded generator's output column (folded), or null when it is none
     */
    default String generatorColumn(net.sf.jsqlparser.statement.select.TableFunction tf) {
        return null;
    }

    /** {@return whether a recursive CTE may read a real table of its own name} */
    default boolean recursiveCteMayReadTable() {
        return false;
    }

    // ------------------------------------------------------------------------------------------------ lexing

    /** {@return whether {@code […]} is a quoted identifier} */
    default boolean squareBracketQuotes() {
        return false;
    }

    /** {@return whether {@code ]]} inside {@code […]} stands for one bracket} */
    default boolean doubledClosingBracket() {
        return false;
    }

    /** {@return whether a back quote may stand inside {@code […]}} */
    default boolean backQuoteInBrackets() {
        return false;
    }

    /** {@return whether a backslash escapes the next character in every quoted string and name} */
    default boolean backslashEscapes() {
        return false;
    }

    /** {@return whether a backslash in {@code '…'} is always itself} */
    default boolean backslashLiteral() {
        return true;
    }

    /** {@return whether a backslash in {@code '…'} depends on a setting (it is refused before a quote)} */
    default boolean backslashBySetting() {
        return false;
    }

    /** {@return whether {@code --} needs a space after it and {@code /*!…*}{@code /} runs as SQL} */
    default boolean executableComments() {
        return false;
    }

    /** {@return whether {@code //} is an operator (integer division)} */
    default boolean slashSlashOperator() {
        return false;
    }

    /** {@return whether braces are SQL (struct literals), not the parser's escape syntax} */
    default boolean bracesAreSql() {
        return false;
    }

    /** {@return whether {@code ||} is logical OR (the default SQL mode), not concatenation} */
    default boolean pipesAreOr() {
        return false;
    }

    // ------------------------------------------------------------------------------------------------ spelling

    /**
     * Respells the engine's syntax the parser does not read, each construct as one the parser does or as a marker
     * the analysis takes off the tree (and {@link Respelled#forEngine} spells back after printing).
     *
     * @param lexed the statement as lexed for this engine
     * @param relex lexes a spelling's output again, as the guard does
     * @return what was respelled; by default nothing
     */
    default Respelled respell(SqlLexer.Result lexed, Respelling.Relexer relex) {
        return Respelled.none(lexed);
    }

    // ------------------------------------------------------------------------------------------------ functions

    /** {@return every function of the engine with its class, lower case; generated from the engine or reviewed} */
    Map<String, FunctionClass> functionClasses();

    /** {@return whether {@link #functionClasses()} was generated from the engine (else hand-written)} */
    default boolean functionsGenerated() {
        return true;
    }

    /** {@return the schema of the engine's own functions ({@code pg_catalog.upper} is {@code upper}), or null} */
    default String functionSchema() {
        return null;
    }

    /** {@return what to write instead of functions the engine lacks but models write, by lower-case name} */
    default Map<String, String> functionEquivalents() {
        return Map.of();
    }

    /** {@return whether a bare built-in's name binds the built-in even when the database defines one} */
    default boolean builtinsShadowStoredFunctions() {
        return false;
    }

    /**
     * @param standard the probes written without parentheses that SQL reads as calls ({@code current_user}, …)
     * @return those this engine reads as calls
     */
    default Set<String> bareProbes(Set<String> standard) {
        return standard;
    }

    /** {@return whether {@code format}/{@code printf} reads {@code %I} and {@code %L} (quoted output)} */
    default boolean formatQuotes() {
        return false;
    }

    /** {@return whether a cast to a type may call a function the database defines (a cast of its own)} */
    default boolean castsMayCallDatabaseFunctions() {
        return false;
    }

    // ------------------------------------------------------------------------------------------------ constructs

    /** {@return whether the standard {@code JSON_OBJECT(k : v)}, {@code ON NULL}, {@code UNIQUE KEYS} are read} */
    default boolean standardJson() {
        return false;
    }

    /** {@return whether {@code JSON_OBJECT(KEY k VALUE v)} is read} */
    default boolean jsonKeyValueKeyword() {
        return false;
    }

    /** {@return whether {@code json_object(text[])}, one argument, is read} */
    default boolean jsonObjectOfArray() {
        return false;
    }

    /**
     * {@return whether {@code JSON_QUERY(x, 'path')} and {@code JSON_VALUE(x, 'path')} are read, in that plain form
     * only (a string literal path over the one input, no other clause), decided by the function policy as calls of
     * {@code json_query} and {@code json_value}}
     */
    default boolean sqlJsonQueries() {
        return false;
    }

    /** {@return whether {@code JSON_OBJECTAGG(k, v)} with a comma is read} */
    default boolean jsonObjectAggWithComma() {
        return false;
    }

    /**
     * @param struct a struct the parser read
     * @return whether it is the engine's struct literal {@code {'key': value}}, whose keys name fields (no
     *     columns) and whose values are walked like any expression
     */
    default boolean structLiteral(net.sf.jsqlparser.expression.StructType struct) {
        return false;
    }

    /** {@return whether {@code f(n => x)} names a parameter of the function} */
    default boolean namedArguments() {
        return false;
    }

    /** {@return whether {@code a <=> b} is NULL-safe equality} */
    default boolean nullSafeEqualsOperator() {
        return false;
    }

    /** {@return whether {@code a @> b} and {@code a <@ b} are containment over both operands} */
    default boolean containmentOperators() {
        return false;
    }

    /** {@return whether {@code value.field} is a field of a value} */
    default boolean fieldAccess() {
        return false;
    }

    /**
     * {@return whether a cast's {@code ROW(name type, …)} type is read: its field names are names of the type's
     * fields only (never columns), its field types type names}
     */
    default boolean rowTypeFields() {
        return false;
    }

    /** {@return whether lambdas {@code x -> …} are read} */
    default boolean lambdas() {
        return false;
    }

    /** {@return whether a natural join's shared columns are computed (else it is refused)} */
    default boolean naturalJoins() {
        return true;
    }

    // ------------------------------------------------------------------------------------------------ rewriting

    /** {@return how the guard caps the rows of a statement that has no cap} */
    default RowCap rowCap() {
        return RowCap.FETCH_FIRST;
    }

    /** {@return whether a derived table's alias is written after {@code AS}} */
    default boolean aliasWithAs() {
        return true;
    }

    /** {@return whether a plain derived table is merged into the query around it (its filter fenced by a LIMIT)} */
    default boolean mergesDerivedTables() {
        return false;
    }

    /** {@return whether the guard bounds the bytes a statement may expand to before it runs} */
    default boolean boundsExpansion() {
        return false;
    }

    /** {@return whether each table is stored in its primary key's order (every scan returns rows in it)} */
    default boolean storedInPrimaryKeyOrder() {
        return false;
    }

    /**
     * How a table reference is written so that the engine reads it through no index ordered by forbidden data.
     *
     * @param ownHint whether the reference has a (checked) hint of its own
     * @param ordering the indexes ordered by forbidden data, the primary key left out
     * @param others the table's other indexes, the primary key left out
     * @return the text to print after the reference (after its own hint), or null for none
     */
    default String avoidIndexes(boolean ownHint, Set<String> ordering, Set<String> others) {
        return null;
    }

    /** {@return whether ordered index scans are switched off for a read over a forbidden-ordered index} */
    default boolean orderedScansOff() {
        return false;
    }
}
