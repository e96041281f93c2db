package dev.sqlagent.internal;

import dev.sqlagent.Dialect;
import dev.sqlagent.llm.ChatMessage;
import java.util.List;

/**
 * The prompts of the Refiner: writing the SQL and the single correction. They describe the task, the
 * schema and the feedback; they never tell the model how many tries it has or how the guard works.
 */
public final class Prompts {

    private Prompts() {
    }

    /**
     * @param question the question
     * @param schemaDdl the schema the model may use
     * @param dialect the database's dialect
     * @return the messages asking for the SQL
     */
    public static List<ChatMessage> generate(String question, String schemaDdl, Dialect dialect) {
        return List.of(ChatMessage.system(system(dialect, schemaDdl)),
                ChatMessage.user("Question: " + question + "\nReply with the SQL query only."));
    }

    /**
     * @param question the question
     * @param schemaDdl the schema the model may use
     * @param dialect the database's dialect
     * @param failedSql the SQL that failed
     * @param category the failure's category
     * @param feedback the database's message or the finding
     * @return the messages asking for the corrected SQL as JSON {@code {"reason", "sql"}}
     */
    public static List<ChatMessage> correct(String question, String schemaDdl, Dialect dialect, String failedSql,
            String category, String feedback) {
        String user = "Question: " + question + "\n\n"
                + "This SQL did not answer it:\n" + failedSql + "\n\n"
                + "What went wrong (" + category + "): " + feedback + "\n\n"
                + "Fix the SQL. Change only the part the error concerns when the error points at one part.\n"
                + "Reply with one JSON object: {\"reason\": \"<what was wrong, one sentence>\", "
                + "\"sql\": \"<the corrected SQL>\"}";
        return List.of(ChatMessage.system(system(dialect, schemaDdl)), ChatMessage.user(user));
    }

    private static String system(Dialect dialect, String schemaDdl) {
        return "You write SQL for a " + dialectName(dialect) + " database.\n"
                + "Write exactly one read-only query (SELECT, or WITH ... SELECT) that answers the question.\n"
                + "Use only the tables and columns of the schema below. Write no comments.\n"
                + dialectHints(dialect)
                + "\nSchema:\n" + schemaDdl;
    }

    static String dialectName(Dialect d) {
        switch (d) {
            case H2: return "H2";
            case SQLITE: return "SQLite";
            case POSTGRESQL: return "PostgreSQL";
            case MYSQL: return "MySQL";
            case MARIADB: return "MariaDB";
            case SQLSERVER: return "Microsoft SQL Server";
            case ORACLE: return "Oracle";
            default: return "ANSI SQL";
        }
    }

    static String dialectHints(Dialect d) {
        switch (d) {
            case SQLITE:
                return "SQLite: dates are text; use strftime('%Y', col) for the year; || concatenates strings.\n";
            case POSTGRESQL:
                return "PostgreSQL: single quotes for strings, double quotes only for identifiers; "
                        + "cast with CAST(x AS type) or x::type; EXTRACT(YEAR FROM col) for the year.\n";
            case MYSQL:
            case MARIADB:
                return "MySQL: YEAR(col) for the year; every non-aggregated selected column must be grouped.\n";
            case SQLSERVER:
                return "SQL Server: use TOP n, not LIMIT; YEAR(col) for the year.\n";
            case ORACLE:
                return "Oracle: use FETCH FIRST n ROWS ONLY, not LIMIT; EXTRACT(YEAR FROM col) for the year.\n";
            case H2:
                return "H2: LIMIT n limits rows; EXTRACT(YEAR FROM col) or YEAR(col) for the year.\n";
            default:
                return "";
        }
    }
}
