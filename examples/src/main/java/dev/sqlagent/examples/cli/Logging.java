package dev.sqlagent.examples.cli;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The command line's logging: slf4j-simple writing to standard error (standard output carries the commands'
 * results and the MCP messages), at the level {@code --log-level} or {@code SQLAGENT_LOG_LEVEL} names, by
 * default {@value #DEFAULT}: the library's warnings (a login broader than the policy, a rule that cannot be
 * kept) appear, its per-question notes do not. It is set before the first logger is made.
 */
final class Logging {

    /** The level without option or variable. */
    static final String DEFAULT = "warn";
    /** The environment variable naming the level. */
    static final String VARIABLE = "SQLAGENT_LOG_LEVEL";
    /** The levels accepted. */
    static final List<String> LEVELS = List.of("trace", "debug", "info", "warn", "error", "off");

    private Logging() {
    }

    /**
     * Reads the level from the arguments ({@code --log-level X} or {@code --log-level=X}, anywhere) or the
     * environment, and configures slf4j-simple unless the JVM was given its own settings.
     *
     * @param args the command line
     * @param env the environment
     * @return the level set, or null when the value is not a level (picocli then reports the usage error)
     */
    static String configure(String[] args, Map<String, String> env) {
        String level = env.get(VARIABLE);
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--log-level") && i + 1 < args.length) {
                level = args[i + 1];
            } else if (args[i].startsWith("--log-level=")) {
                level = args[i].substring("--log-level=".length());
            }
        }
        level = level == null || level.isBlank() ? DEFAULT : level.strip().toLowerCase(Locale.ROOT);
        if (!LEVELS.contains(level)) {
            return null;
        }
        set("org.slf4j.simpleLogger.defaultLogLevel", level);
        set("org.slf4j.simpleLogger.logFile", "System.err");
        set("org.slf4j.simpleLogger.showThreadName", "false");
        set("org.slf4j.simpleLogger.showShortLogName", "true");
        set("org.slf4j.simpleLogger.levelInBrackets", "true");
        return level;
    }

    private static void set(String property, String value) {
        if (!property.endsWith("defaultLogLevel") && System.getProperty(property) != null) {
            return; // the JVM's own -D settings win, except the level, which the option names
        }
        System.setProperty(property, value);
    }
}
