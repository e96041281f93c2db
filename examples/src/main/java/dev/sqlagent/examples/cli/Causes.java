package dev.sqlagent.examples.cli;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;

/**
 * Error messages that name the cause (the file, the host, the login) and the next step, for the commands'
 * start-up failures. A driver's own message ("The connection attempt failed") often hides the cause in its
 * chain: the chain is read first.
 */
final class Causes {
    /** The drivers the jar carries, as a "no driver" error names them. */
    static final String DRIVERS = "the jar has H2 (jdbc:h2:), SQLite (jdbc:sqlite:), PostgreSQL (jdbc:postgresql:),"
            + " MariaDB/MySQL (jdbc:mariadb:) and Trino (jdbc:trino:)";

    private Causes() {
    }

    /**
     * Why a connection failed, and what to do.
     *
     * @param e the driver's exception
     * @param where the database, for people (a redacted URL or a file)
     * @param user the login, or null
     * @return one line
     */
    static String connection(SQLException e, String where, String user) {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof UnknownHostException) {
                return "cannot connect to " + where + ": unknown host " + t.getMessage()
                        + "; check the host name in --jdbc-url";
            }
            if (t instanceof ConnectException || t instanceof NoRouteToHostException) {
                return "cannot connect to " + where + ": nothing answers there (" + t.getMessage()
                        + "); is the database server running, and are host and port in --jdbc-url right?";
            }
            if (t instanceof SocketTimeoutException) {
                return "cannot connect to " + where + ": the connection timed out; check the host, the port and "
                        + "any firewall between";
            }
        }
        String m = message(e);
        if (state.startsWith("28") || m.toLowerCase(java.util.Locale.ROOT).contains("password authentication failed")
                || m.contains("Access denied for user")) {
            return "cannot connect to " + where + ": the login " + (user == null ? "(none given)" : "'" + user + "'")
                    + " was refused (" + m + "); check --user and the password in the variable --password-env names";
        }
        if (state.equals("3D000") || m.contains("Unknown database")) {
            return "cannot connect to " + where + ": the database does not exist (" + m + "); check its name in "
                    + "--jdbc-url";
        }
        return "cannot connect to " + where + ": " + m + (state.isEmpty() ? "" : " (SQLState " + state + ")");
    }

    /**
     * Why a file given on the command line cannot be read, or null when it can.
     *
     * @param file the file as given
     * @param option the option that gave it
     * @return one line naming the cause and the next step, or null
     */
    static String unreadable(Path file, String option) {
        if (Files.isRegularFile(file) && Files.isReadable(file)) {
            return null;
        }
        String why = !Files.exists(file) ? "no such file"
                : Files.isDirectory(file) ? "it is a directory, not a file" : "permission denied";
        return "cannot read " + file + " (" + option + "): " + why + " (relative paths start at "
                + Path.of("").toAbsolutePath() + "); check the path";
    }

    private static String message(SQLException e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        if ((m.isBlank() || m.equals("Something unusual has occurred to cause the driver to fail.")) && e.getCause() != null) {
            m = String.valueOf(e.getCause().getMessage());
        }
        return TracePrinter.oneLine(m);
    }
}
