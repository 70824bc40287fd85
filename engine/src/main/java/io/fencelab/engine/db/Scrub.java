package io.fencelab.engine.db;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The one home of what text may say about where a database is and who connects to it. Two readers,
 * two rules: a person (an error on the command line, a status line) may be told where the database
 * is but never a password ({@link #forPerson}); what a run records (its events and end cause, kept
 * and shared, the same on every machine) names nothing about the database at all
 * ({@link #forRecord}). A new form of credential is added here, once, for both.
 */
final class Scrub {

    private Scrub() {
    }

    // For a person: passwords masked, the rest of the URL kept.
    private static final Pattern PASSWORD_PARAMETER = Pattern.compile("(?i)(password=)([^&;\\s]*)");
    private static final Pattern USER_INFO = Pattern.compile("(//[^/@:\\s]*:)([^@/\\s]*)@");
    private static final Pattern PASSWORD_PARAMETER_WITH_SEPARATOR = Pattern.compile("(?i)(?<=[?&;])password=[^&;\\s]*[&;]?");
    private static final Pattern TRAILING_SEPARATOR = Pattern.compile("[?&;]$");

    // For a record: every trace of the server and its users taken out.
    private static final Pattern URL = Pattern.compile("(?i)\\b(?:jdbc:)?postgres(?:ql)?:[^\\s,;]*");
    private static final Pattern HOST_PORT = Pattern.compile("(?<![\\w.:/-])\\[?[\\w.:-]*[\\w\\]]:\\d{1,5}\\b");
    private static final Pattern KEY_VALUE = Pattern.compile("(?i)\\b(user|password|sslpassword|host|port)=[^\\s&,;]*");
    private static final Pattern NAMED_ROLE = Pattern.compile("(?i)\\b(user|role) \"[^\"]*\"");

    /** {@code text} with the password of every URL in it masked, in both forms ({@code password=***}, {@code //user:***@}). */
    static String forPerson(String text) {
        if (text == null) {
            return null;
        }
        String masked = PASSWORD_PARAMETER.matcher(text).replaceAll("$1***");
        return USER_INFO.matcher(masked).replaceAll("$1***@");
    }

    /** {@code text} with each of {@code secrets} (null or empty ones skipped) masked wherever it appears, then as {@link #forPerson(String)}. */
    static String forPerson(String text, String... secrets) {
        String clean = text;
        for (String secret : secrets) {
            if (secret != null && !secret.isEmpty()) {
                clean = clean.replace(secret, "***");
            }
        }
        return forPerson(clean);
    }

    /** A URL as a person is shown it: a {@code password=} parameter left out altogether, the rest as {@link #forPerson(String)}. */
    static String urlForPerson(String jdbcUrl) {
        String withoutParameter = PASSWORD_PARAMETER_WITH_SEPARATOR.matcher(jdbcUrl).replaceAll("");
        return forPerson(TRAILING_SEPARATOR.matcher(withoutParameter).replaceAll(""));
    }

    /** The password a JDBC URL carries, in either form, if any. */
    static Optional<String> passwordIn(String jdbcUrl) {
        var parameter = PASSWORD_PARAMETER.matcher(jdbcUrl);
        if (parameter.find() && !parameter.group(2).isEmpty()) {
            return Optional.of(parameter.group(2));
        }
        var userInfo = USER_INFO.matcher(jdbcUrl);
        return userInfo.find() && !userInfo.group(2).isEmpty() ? Optional.of(userInfo.group(2)) : Optional.empty();
    }

    /**
     * The first line of {@code text} with what would say where the database is or who connects to it
     * taken out: URLs, {@code host:port}, {@code user=…} and {@code password=…} parameters, quoted user
     * and role names; at most 300 characters. The driver's own messages ("Connection to
     * localhost:5432 refused") are the usual source.
     */
    static String forRecord(String text) {
        if (text == null) {
            return "unknown error";
        }
        String s = firstLine(text);
        s = URL.matcher(s).replaceAll("the database");
        s = KEY_VALUE.matcher(s).replaceAll("$1=…");
        s = NAMED_ROLE.matcher(s).replaceAll("$1 …");
        s = HOST_PORT.matcher(s).replaceAll("the server");
        return s.length() > 300 ? s.substring(0, 299) + "…" : s;
    }

    /** The first line of {@code text}, stripped. */
    static String firstLine(String text) {
        if (text == null) {
            return "unknown error";
        }
        int nl = text.indexOf('\n');
        return (nl < 0 ? text : text.substring(0, nl)).strip();
    }
}
