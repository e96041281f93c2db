package dev.sqlagent.eval;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Reads evaluation questions from JSONL (one object a line) or CSV (RFC 4180, a header line naming the
 * columns). Fields: {@code id} (optional: the 1-based record number when absent), {@code question}
 * (required), {@code db_id} (required), {@code gold_sql}, {@code table}, {@code category} (optional).
 * Other fields are ignored; blank lines in JSONL are skipped. The format follows the file name:
 * {@code .csv} is CSV, anything else JSONL.
 *
 * <p>Every fault names the file and the line: malformed JSON, a missing required field, a CSV record
 * with more cells than the header, an unterminated quote, a duplicate id.
 */
public final class EvalQuestions {

    private EvalQuestions() {
    }

    /**
     * Reads a question set, as JSONL or as CSV according to the file name.
     *
     * @param file a {@code .jsonl} or {@code .csv} file, UTF-8
     * @return the questions in file order
     * @throws EvalInputException naming file and line when a record is malformed or an id repeats
     * @throws java.io.UncheckedIOException when the file cannot be read
     */
    public static List<EvalQuestion> load(Path file) {
        Objects.requireNonNull(file, "file");
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
        List<EvalQuestion> out = file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".csv")
                ? fromCsv(file, lines) : fromJsonLines(file, lines);
        return out;
    }

    private static List<EvalQuestion> fromJsonLines(Path file, List<String> lines) {
        List<EvalQuestion> out = new ArrayList<>();
        Map<String, Integer> seen = new HashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank()) {
                continue;
            }
            Map<String, Object> fields;
            try {
                fields = Json.parseObject(line);
            } catch (IOException e) {
                throw new EvalInputException(file, i + 1, "not a JSON object: " + e.getMessage(), e);
            }
            Map<String, String> text = new HashMap<>();
            fields.forEach((k, v) -> text.put(k, Json.text(v)));
            out.add(question(file, i + 1, text, out.size() + 1, seen));
        }
        return out;
    }

    private static List<EvalQuestion> fromCsv(Path file, List<String> lines) {
        List<CsvRecord> records = parseCsv(file, lines);
        if (records.isEmpty()) {
            throw new EvalInputException(file, 0, "the CSV file is empty; a header line is required", null);
        }
        List<String> header = new ArrayList<>();
        for (String h : records.get(0).cells()) {
            header.add(h.strip().toLowerCase(Locale.ROOT).replace('\ufeff', ' ').strip());
        }
        for (String required : List.of("question", "db_id")) {
            if (!header.contains(required)) {
                throw new EvalInputException(file, 1, "the header has no '" + required + "' column: " + header, null);
            }
        }
        List<EvalQuestion> out = new ArrayList<>();
        Map<String, Integer> seen = new HashMap<>();
        for (CsvRecord r : records.subList(1, records.size())) {
            if (r.cells().size() == 1 && r.cells().get(0).isBlank()) {
                continue;
            }
            if (r.cells().size() > header.size()) {
                throw new EvalInputException(file, r.line(), "the record has " + r.cells().size()
                        + " cells but the header has " + header.size(), null);
            }
            Map<String, String> text = new HashMap<>();
            for (int c = 0; c < r.cells().size(); c++) {
                text.put(header.get(c), r.cells().get(c));
            }
            out.add(question(file, r.line(), text, out.size() + 1, seen));
        }
        return out;
    }

    private static EvalQuestion question(Path file, int line, Map<String, String> f, int ordinal,
            Map<String, Integer> seen) {
        String question = f.getOrDefault("question", "").strip();
        String dbId = f.getOrDefault("db_id", "").strip();
        if (question.isEmpty()) {
            throw new EvalInputException(file, line, "field 'question' is missing or blank", null);
        }
        if (dbId.isEmpty()) {
            throw new EvalInputException(file, line, "field 'db_id' is missing or blank", null);
        }
        String id = f.getOrDefault("id", "").strip();
        if (id.isEmpty()) {
            id = Integer.toString(ordinal);
        }
        Integer before = seen.putIfAbsent(id, line);
        if (before != null) {
            throw new EvalInputException(file, line, "id '" + id + "' already used on line " + before, null);
        }
        return new EvalQuestion(id, question, f.getOrDefault("gold_sql", "").strip(), dbId,
                f.getOrDefault("table", "").strip(), f.getOrDefault("category", "").strip());
    }

    /** One CSV record and the line it starts on. */
    private record CsvRecord(int line, List<String> cells) {
    }

    private static List<CsvRecord> parseCsv(Path file, List<String> lines) {
        List<CsvRecord> out = new ArrayList<>();
        int i = 0;
        while (i < lines.size()) {
            int start = i + 1;
            List<String> cells = new ArrayList<>();
            StringBuilder cell = new StringBuilder();
            boolean quoted = false;
            String line = lines.get(i);
            int pos = 0;
            while (true) {
                if (pos >= line.length()) {
                    if (quoted) {
                        i++;
                        if (i >= lines.size()) {
                            throw new EvalInputException(file, start, "unterminated quoted cell", null);
                        }
                        cell.append('\n');
                        line = lines.get(i);
                        pos = 0;
                        continue;
                    }
                    cells.add(cell.toString());
                    break;
                }
                char ch = line.charAt(pos++);
                if (quoted) {
                    if (ch == '"') {
                        if (pos < line.length() && line.charAt(pos) == '"') {
                            cell.append('"');
                            pos++;
                        } else {
                            quoted = false;
                        }
                    } else {
                        cell.append(ch);
                    }
                } else if (ch == '"' && cell.length() == 0) {
                    quoted = true;
                } else if (ch == ',') {
                    cells.add(cell.toString());
                    cell.setLength(0);
                } else {
                    cell.append(ch);
                }
            }
            out.add(new CsvRecord(start, cells));
            i++;
        }
        return out;
    }
}
