package dev.sqlagent.examples.cli;

/**
 * The exit codes of every command, one table (docs/cli.md):
 *
 * <table>
 *   <caption>exit codes</caption>
 *   <tr><td>0</td><td>success: answered, every line processed, least privilege, the server stopped</td></tr>
 *   <tr><td>1</td><td>internal error: a bug, please report it</td></tr>
 *   <tr><td>2</td><td>usage error: a bad or missing option, a missing environment variable, no driver</td></tr>
 *   <tr><td>3</td><td>refused: the guard refused the SQL, or the login can do more than the policy allows</td></tr>
 *   <tr><td>4</td><td>failed: no answer, or not the expected one</td></tr>
 *   <tr><td>5</td><td>the database cannot be reached: a missing file, an unknown host, nothing listening, a
 *       refused login</td></tr>
 * </table>
 */
final class ExitCodes {

    /** Success. */
    static final int OK = 0;
    /** An internal error: a bug. */
    static final int INTERNAL = 1;
    /** A usage error: a bad or missing option or environment variable, no driver for the URL. */
    static final int USAGE = 2;
    /** Refused: by the guard, or a login broader than the policy. */
    static final int REFUSED = 3;
    /** Failed: no answer, or not the expected one. */
    static final int FAILED = 4;
    /** The database cannot be reached: a missing file, an unknown host, nothing listening, a refused login. */
    static final int UNREACHABLE = 5;

    private ExitCodes() {
    }
}
