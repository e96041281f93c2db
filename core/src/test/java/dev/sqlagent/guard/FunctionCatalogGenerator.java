package dev.sqlagent.guard;

import dev.sqlagent.guard.EngineFunctions.Form;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Generates the classified function catalogs {@link FunctionCatalog} loads
 * ({@code core/src/main/resources/dev/sqlagent/engine/<engine>/functions.tsv}) from the engines' own
 * catalogs, listed by {@link EngineFunctions}.
 *
 * <p>Classification, per form of a function, first match wins: the reviewed lists of this class (by name);
 * engine support functions (type input/output, index, planner and aggregate-step support, trigger and
 * handler functions, {@code internal} or {@code cstring} arguments) are {@link FunctionClass#INTERNAL};
 * name patterns of the unsafe families ({@code pg_*}, {@code lo_*}, {@code has_*_privilege}, …) and
 * catalog or session types among the arguments; then, on PostgreSQL, an {@code IMMUTABLE} non-set-returning
 * function of {@code pg_catalog} is a safe scalar or aggregate (the engine promises its result depends on
 * its arguments only) and on SQLite a deterministic built-in is. Anything left is not defaulted: the
 * generator fails and names it, to be reviewed into a list. A name overloaded with several classes gets the
 * most restrictive one.
 *
 * <p>Run it (servers from {@code scripts/start-servers.sh}; it reads {@code SQLAGENT_PG_URL},
 * {@code SQLAGENT_MARIADB_URL} and their users as the server tests do):
 * <pre>
 * eval "$(bash scripts/start-servers.sh)"
 * slot mvn -B -q -pl core -am test-compile dependency:build-classpath -Dmdep.outputFile=/tmp/cp.txt \
 *     -Dmdep.includeScope=test -Dmaven.javadoc.skip=true
 * java -cp core/target/test-classes:core/target/classes:$(cat /tmp/cp.txt) \
 *     dev.sqlagent.guard.FunctionCatalogGenerator core/src/main/resources/dev/sqlagent/engine
 * </pre>
 * An optional list of engines after the folder ({@code postgresql mariadb h2 sqlite}) limits the run.
 */
public final class FunctionCatalogGenerator {

    /**
     * One line of a catalog.
     *
     * @param name the catalog key
     * @param functionClass its class
     * @param reason one word saying why
     */
    record Entry(String name, FunctionClass functionClass, String reason) {
    }

    private FunctionCatalogGenerator() {
    }

    /**
     * Writes the catalogs.
     *
     * @param args the output folder, then optionally the engines to generate
     * @throws Exception when an engine cannot be read or a function is left unclassified
     */
    public static void main(String[] args) throws Exception {
        Path out = Paths.get(args.length > 0 ? args[0] : "core/src/main/resources/dev/sqlagent/engine");
        Set<String> engines = new LinkedHashSet<>(args.length > 1 ? Arrays.asList(args).subList(1, args.length)
                : List.of("postgresql", "mariadb", "h2", "sqlite", "duckdb"));
        Files.createDirectories(out);
        for (String engine : engines) {
            switch (engine) {
                case "postgresql" -> {
                    try (Connection c = connect("SQLAGENT_PG", "jdbc:postgresql://127.0.0.1:5432/test", "postgres")) {
                        write(out.resolve("postgres/functions.tsv"), version(c), postgres(EngineFunctions.postgres(c),
                                EngineFunctions.postgresKeywords(c)));
                    }
                }
                case "mariadb" -> {
                    EngineFunctions.quietMariaDbDriver();
                    try (Connection c = connect("SQLAGENT_MARIADB", "jdbc:mariadb://127.0.0.1:3306/test", "root")) {
                        write(out.resolve("mariadb/functions.tsv"), version(c), mariadb(EngineFunctions.mariadb(c)));
                    }
                }
                case "h2" -> {
                    try (Connection c = DriverManager.getConnection("jdbc:h2:mem:")) {
                        write(out.resolve("h2/functions.tsv"), version(c), h2(EngineFunctions.h2()));
                    }
                }
                case "sqlite" -> {
                    try (Connection c = DriverManager.getConnection("jdbc:sqlite::memory:")) {
                        write(out.resolve("sqlite/functions.tsv"), version(c), sqlite(EngineFunctions.sqlite(c)));
                    }
                }
                case "duckdb" -> {
                    try (Connection c = DriverManager.getConnection("jdbc:duckdb:")) {
                        write(out.resolve("duckdb/functions.tsv"), version(c), duckdb(EngineFunctions.duckdb(c)));
                    }
                }
                default -> throw new IllegalArgumentException("unknown engine " + engine);
            }
        }
    }

    private static Connection connect(String prefix, String url, String user) throws SQLException {
        String u = System.getenv(prefix + "_URL");
        String login = System.getenv(prefix + "_USER");
        String password = System.getenv(prefix + "_PASSWORD");
        return DriverManager.getConnection(u == null ? url : u, login == null ? user : login,
                password == null ? "" : password);
    }

    private static String version(Connection c) throws SQLException {
        DatabaseMetaData md = c.getMetaData();
        return md.getDatabaseProductName() + " " + md.getDatabaseProductVersion();
    }

    static void write(Path file, String source, Map<String, Entry> entries) throws IOException {
        StringBuilder sb = new StringBuilder();
        sb.append("# Generated by dev.sqlagent.guard.FunctionCatalogGenerator (core test sources) from ").append(source)
                .append(".\n# Do not edit by hand: change the generator's reviewed lists and run it again.\n")
                .append("# name\tclass\treason\n");
        for (Entry e : entries.values()) {
            sb.append(e.name()).append('\t').append(e.functionClass()).append('\t').append(e.reason()).append('\n');
        }
        Files.writeString(file, sb.toString(), StandardCharsets.UTF_8);
        System.out.println("wrote " + entries.size() + " functions to " + file);
    }

    // ---------------------------------------------------------------- combining

    /** Most restrictive first. */
    private static final List<FunctionClass> SEVERITY = List.of(FunctionClass.WRITES, FunctionClass.READS_FILES,
            FunctionClass.WAITS_OR_LOCKS, FunctionClass.READS_TABLES, FunctionClass.READS_CATALOG,
            FunctionClass.READS_SESSION, FunctionClass.INTERNAL, FunctionClass.EXPANDS_RESOURCES,
            FunctionClass.SAFE_WINDOW, FunctionClass.SAFE_AGGREGATE, FunctionClass.SAFE_SCALAR);

    private static final class Builder {
        private final Map<String, Entry> entries = new TreeMap<>();
        private final Set<String> unreviewed = new TreeSet<>();
        private final String engine;

        Builder(String engine) {
            this.engine = engine;
        }

        void add(String name, FunctionClass c, String reason) {
            Entry old = entries.get(name);
            if (old == null || SEVERITY.indexOf(c) < SEVERITY.indexOf(old.functionClass())) {
                entries.put(name, new Entry(name, c, reason));
            }
        }

        void unreviewed(String what) {
            unreviewed.add(what);
        }

        /** Applies the reviewed lists (final, by name) and fails on anything unreviewed. */
        Map<String, Entry> build(Map<String, Entry> reviewed) {
            Set<String> left = new TreeSet<>();
            for (String u : unreviewed) {
                String name = u.contains(" ") ? u.substring(0, u.indexOf(' ')) : u;
                if (!reviewed.containsKey(name)) {
                    left.add(u);
                }
            }
            if (!left.isEmpty()) {
                throw new IllegalStateException(engine + ": " + left.size() + " functions no rule classifies; review"
                        + " them into a list of FunctionCatalogGenerator:\n  " + String.join("\n  ", left));
            }
            Map<String, Entry> out = new TreeMap<>(entries);
            for (String name : new ArrayList<>(out.keySet())) {
                Entry r = reviewed.get(name);
                if (r != null) {
                    out.put(name, r);
                }
            }
            // a reviewed name is the engine's even when the live listing misses it (syntax, window functions
            // the probe cannot call without OVER)
            for (Map.Entry<String, Entry> r : reviewed.entrySet()) {
                out.putIfAbsent(r.getKey(), r.getValue());
            }
            return out;
        }
    }

    /** A reviewed list: names (space separated) of one class, with one reason. */
    private static void put(Map<String, Entry> m, FunctionClass c, String reason, String names) {
        for (String n : names.trim().split("\\s+")) {
            Entry old = m.put(n, new Entry(n, c, reason));
            if (old != null && old.functionClass() != c) {
                throw new IllegalStateException(n + " is reviewed twice: " + old.functionClass() + " and " + c);
            }
        }
    }

    private static final FunctionClass SCALAR = FunctionClass.SAFE_SCALAR;
    private static final FunctionClass AGGREGATE = FunctionClass.SAFE_AGGREGATE;
    private static final FunctionClass WINDOW = FunctionClass.SAFE_WINDOW;
    private static final FunctionClass EXPANDS = FunctionClass.EXPANDS_RESOURCES;
    private static final FunctionClass TABLES = FunctionClass.READS_TABLES;
    private static final FunctionClass FILES = FunctionClass.READS_FILES;
    private static final FunctionClass CATALOG = FunctionClass.READS_CATALOG;
    private static final FunctionClass SESSION = FunctionClass.READS_SESSION;
    private static final FunctionClass WRITES = FunctionClass.WRITES;
    private static final FunctionClass WAITS = FunctionClass.WAITS_OR_LOCKS;
    private static final FunctionClass INTERNAL = FunctionClass.INTERNAL;

    // ---------------------------------------------------------------- PostgreSQL

    private static final Set<String> PG_INTERNAL_TYPES = Set.of("internal", "cstring", "trigger", "event_trigger",
            "language_handler", "fdw_handler", "index_am_handler", "tsm_handler", "table_am_handler");
    private static final Set<String> PG_CATALOG_TYPES = Set.of("regclass", "regproc", "regprocedure", "regoper",
            "regoperator", "regtype", "regrole", "regnamespace", "regcollation", "oid", "oidvector", "aclitem",
            "aclitem[]", "pg_node_tree", "pg_ndistinct", "pg_dependencies", "pg_mcv_list", "pg_brin_bloom_summary",
            "pg_brin_minmax_multi_summary", "regclass[]", "regtype[]", "oid[]");
    private static final Set<String> PG_SESSION_TYPES = Set.of("xid", "xid8", "cid", "tid", "pg_lsn",
            "pg_snapshot", "txid_snapshot", "xid[]", "xid8[]", "tid[]", "pg_lsn[]");

    /** PostgreSQL's reviewed classes, by name; final. */
    static Map<String, Entry> postgresReviewed() {
        Map<String, Entry> m = new HashMap<>();
        put(m, TABLES, "runs-query", """
                query_to_xml query_to_xml_and_xmlschema query_to_xmlschema table_to_xml table_to_xml_and_xmlschema
                table_to_xmlschema cursor_to_xml cursor_to_xmlschema schema_to_xml schema_to_xml_and_xmlschema
                schema_to_xmlschema database_to_xml database_to_xml_and_xmlschema database_to_xmlschema ts_stat
                ts_rewrite""");
        put(m, WAITS, "sleeps-or-locks", """
                pg_sleep pg_sleep_for pg_sleep_until pg_advisory_lock pg_advisory_lock_shared pg_advisory_unlock
                pg_advisory_unlock_all pg_advisory_unlock_shared pg_advisory_xact_lock pg_advisory_xact_lock_shared
                pg_try_advisory_lock pg_try_advisory_lock_shared pg_try_advisory_xact_lock
                pg_try_advisory_xact_lock_shared pg_cancel_backend pg_terminate_backend
                pg_isolation_test_session_is_blocked""");
        put(m, FILES, "files", """
                pg_read_file pg_read_file_old pg_read_binary_file pg_ls_dir pg_ls_logdir pg_ls_waldir pg_ls_tmpdir
                pg_ls_archive_statusdir pg_ls_logicalmapdir pg_ls_logicalsnapdir pg_ls_replslotdir pg_stat_file
                pg_current_logfile pg_hba_file_rules pg_ident_file_mappings pg_show_all_file_settings lo_get lo_open
                lo_close loread lo_lseek lo_lseek64 lo_tell lo_tell64 lo_import""");
        put(m, WRITES, "writes", """
                set_config setval nextval setseed lo_create lo_creat lo_unlink lo_put lo_from_bytea lo_truncate
                lo_truncate64 lowrite lo_export pg_reload_conf pg_rotate_logfile pg_rotate_logfile_old pg_switch_wal
                pg_create_restore_point pg_create_logical_replication_slot pg_create_physical_replication_slot
                pg_drop_replication_slot pg_copy_logical_replication_slot pg_copy_physical_replication_slot
                pg_replication_slot_advance pg_replication_origin_advance pg_replication_origin_create
                pg_replication_origin_drop pg_replication_origin_session_reset pg_replication_origin_session_setup
                pg_replication_origin_xact_reset pg_replication_origin_xact_setup pg_logical_emit_message
                pg_logical_slot_get_binary_changes pg_logical_slot_get_changes pg_logical_slot_peek_binary_changes
                pg_logical_slot_peek_changes pg_promote pg_backup_start pg_backup_stop pg_stat_reset
                pg_stat_reset_replication_slot pg_stat_reset_shared pg_stat_reset_single_function_counters
                pg_stat_reset_single_table_counters pg_stat_reset_slru pg_stat_reset_subscription_stats
                pg_stat_clear_snapshot pg_stat_force_next_flush pg_import_system_collations pg_nextoid pg_notify
                pg_wal_replay_pause pg_wal_replay_resume pg_log_backend_memory_contexts pg_export_snapshot
                pg_extension_config_dump pg_stop_making_pinned_objects brin_summarize_range
                brin_summarize_new_values brin_desummarize_range gin_clean_pending_list""");
        put(m, SESSION, "session", """
                current_user current_role session_user user current_schema current_schemas current_database
                current_catalog current_query current_setting version inet_client_addr inet_client_port
                inet_server_addr inet_server_port getpgusername getdatabaseencoding currval lastval txid_current
                txid_current_if_assigned txid_current_snapshot txid_status txid_visible_in_snapshot
                txid_snapshot_xmin txid_snapshot_xmax txid_snapshot_xip get_current_ts_config mxid_age system_user
                row_security_active numeric_pl_pg_lsn""");
        put(m, CATALOG, "catalog", """
                obj_description col_description shobj_description format_type to_regclass to_regcollation
                to_regnamespace to_regoper to_regoperator to_regproc to_regprocedure to_regrole to_regtype regclass
                oidvectortypes aclexplode acldefault makeaclitem amvalidate enum_first enum_last enum_range ts_debug
                ts_parse ts_token_type fmgr_c_validator fmgr_internal_validator fmgr_sql_validator
                information_schema._pg_char_max_length information_schema._pg_char_octet_length
                information_schema._pg_datetime_precision information_schema._pg_expandarray
                information_schema._pg_index_position information_schema._pg_interval_type
                information_schema._pg_keysequal information_schema._pg_numeric_precision
                information_schema._pg_numeric_precision_radix information_schema._pg_numeric_scale
                information_schema._pg_truetypid information_schema._pg_truetypmod""");
        put(m, EXPANDS, "expands", """
                repeat lpad rpad generate_series array_fill format replace regexp_replace""");
        put(m, SCALAR, "reviewed", """
                age array_to_json array_to_string concat concat_ws convert convert_from convert_to date date_part
                date_trunc extract json_build_array json_build_object json_populate_record json_to_record
                json_to_tsvector jsonb_build_array jsonb_build_object jsonb_populate_record jsonb_to_record
                jsonb_to_tsvector jsonb_path_exists_tz jsonb_path_match_tz jsonb_path_query_array_tz
                jsonb_path_query_first_tz length make_timestamptz money now numeric overlaps phraseto_tsquery
                plainto_tsquery quote_literal quote_nullable row_to_json statement_timestamp time timestamp
                timestamptz timetz timezone to_char to_date to_json to_jsonb to_number to_timestamp to_tsquery
                to_tsvector transaction_timestamp ts_headline ts_match_tq ts_match_tt websearch_to_tsquery xml
                xml_is_well_formed clock_timestamp timeofday random gen_random_uuid interval_pl_timestamptz
                anytextcat textanycat bit_length int8pl_inet integer_pl_date log log10 path_contain_pt polygon round
                substring timedate_pl timetzdate_pl trunc xpath xpath_exists isempty range_merge inet_merge
                inet_same_family bound_box""");
        put(m, INTERNAL, "type-io", "enum_send");
        put(m, SCALAR, "reviewed-rows", """
                unnest generate_subscripts regexp_matches regexp_split_to_table string_to_table json_array_elements
                json_array_elements_text jsonb_array_elements jsonb_array_elements_text json_each json_each_text
                jsonb_each jsonb_each_text json_object_keys jsonb_object_keys json_populate_recordset
                jsonb_populate_recordset json_to_recordset jsonb_to_recordset jsonb_path_query
                jsonb_path_query_tz""");
        put(m, AGGREGATE, "reviewed", "json_agg jsonb_agg json_object_agg jsonb_object_agg");
        // syntax the grammar reads as a call without a pg_proc function of that name
        put(m, SCALAR, "syntax", """
                coalesce nullif greatest least current_date current_time current_timestamp localtime localtimestamp
                cast treat trim xmlelement xmlforest xmlpi xmlroot xmlparse xmlserialize xmlconcat xmlattributes
                xmlexists row array any some all exists values collation normalize""");
        put(m, AGGREGATE, "syntax", "grouping rollup cube");
        return m;
    }

    private static final Pattern PG_DATETIME_OPERATOR = Pattern.compile(
            "(date|time|timetz|timestamp|timestamptz|interval)_(cmp|eq|ne|lt|le|gt|ge|pl|mi)_(date|time|timetz|"
                    + "timestamp|timestamptz|interval)");

    static Map<String, Entry> postgres(List<Form> forms, Map<String, String> keywords) {
        Map<String, Entry> reviewed = postgresReviewed();
        for (Map.Entry<String, Entry> e : reviewed.entrySet()) {
            if (e.getValue().reason().equals("syntax") && !keywords.containsKey(e.getKey())) {
                throw new IllegalStateException("syntax function " + e.getKey() + " is no PostgreSQL keyword");
            }
        }
        Builder b = new Builder("PostgreSQL");
        for (Form f : forms) {
            String n = f.name();
            Set<String> types = new TreeSet<>();
            for (String t : f.types()) {
                types.add(t.startsWith("returns ") ? t.substring(8) : t);
            }
            String internalType = first(types, PG_INTERNAL_TYPES);
            if (f.support() != null) {
                b.add(n, INTERNAL, f.support());
            } else if (internalType != null) {
                b.add(n, INTERNAL, internalType.replace('_', '-'));
            } else if (n.startsWith("information_schema.") || n.startsWith("binary_upgrade_")) {
                b.add(n, n.startsWith("binary_") ? WRITES : CATALOG, "catalog");
            } else if (n.startsWith("has_") && n.endsWith("_privilege")) {
                b.add(n, CATALOG, "privileges");
            } else if (n.startsWith("pg_")) {
                b.add(n, pgFamily(n), "pg-family");
            } else if (n.startsWith("lo_") || n.startsWith("dblink")) {
                b.add(n, FILES, "large-objects");
            } else if (f.volatility() != 'i' && first(types, PG_SESSION_TYPES) != null) {
                b.add(n, SESSION, "session-type");
            } else if (f.volatility() != 'i' && first(types, PG_CATALOG_TYPES) != null) {
                b.add(n, CATALOG, "catalog-type");
            } else if (f.setReturning()) {
                b.add(n, SCALAR, "rows");
                b.unreviewed(n + " (set-returning)");
            } else if (f.volatility() != 'i' || !f.language().equals("internal") && !f.language().equals("c")) {
                if (PG_DATETIME_OPERATOR.matcher(n).matches()) {
                    b.add(n, SCALAR, "operator");
                } else {
                    b.add(n, f.kind() == 'a' ? AGGREGATE : f.kind() == 'w' ? WINDOW : SCALAR, "reviewed");
                    b.unreviewed(n + " (" + (f.volatility() == 'v' ? "volatile" : f.volatility() == 's' ? "stable"
                            : "immutable") + ", " + f.language() + ")");
                }
            } else {
                b.add(n, f.kind() == 'a' ? AGGREGATE : f.kind() == 'w' ? WINDOW : SCALAR, "immutable");
            }
        }
        return b.build(reviewed);
    }

    /** The class of a {@code pg_*} function that no reviewed list names: by family, catalog by default. */
    private static FunctionClass pgFamily(String n) {
        if (n.startsWith("pg_stat_") || n.startsWith("pg_current_") || n.startsWith("pg_last_")
                || n.startsWith("pg_control_") || n.startsWith("pg_backend_") || n.startsWith("pg_snapshot_")
                || n.startsWith("pg_xact_") || n.startsWith("pg_visible_") || n.startsWith("pg_wal")
                || n.startsWith("pg_replication_") || n.startsWith("pg_is_") || n.startsWith("pg_get_wal")
                || n.contains("blocking_pids") || n.startsWith("pg_conf_") || n.startsWith("pg_postmaster_")
                || n.startsWith("pg_trigger_depth") || n.startsWith("pg_client_") || n.startsWith("pg_jit")
                || n.startsWith("pg_lock_status") || n.startsWith("pg_notification") || n.startsWith("pg_prepared_")
                || n.startsWith("pg_cursor") || n.startsWith("pg_show_") || n.startsWith("pg_settings")
                || n.startsWith("pg_my_temp") || n.startsWith("pg_get_backend") || n.startsWith("pg_get_shmem")
                || n.startsWith("pg_get_multixact") || n.startsWith("pg_safe_snapshot")
                || n.startsWith("pg_available_") || n.startsWith("pg_timezone_")) {
            return SESSION;
        }
        return CATALOG;
    }

    private static String first(Set<String> types, Set<String> wanted) {
        for (String t : types) {
            if (wanted.contains(t)) {
                return t;
            }
        }
        return null;
    }

    // ---------------------------------------------------------------- MariaDB (and MySQL)

    /** MariaDB's reviewed classes, by name; every listed function must be named here. */
    static Map<String, Entry> mariadbReviewed() {
        Map<String, Entry> m = new HashMap<>();
        put(m, WAITS, "sleeps-or-locks", """
                benchmark sleep get_lock release_lock release_all_locks is_free_lock is_used_lock master_pos_wait
                master_gtid_wait source_pos_wait wsrep_sync_wait_upto_gtid""");
        put(m, FILES, "files", "load_file des_encrypt des_decrypt");
        // XPath over a string whose error message carries the string: the classic error-based exfiltration
        // channel, never needed by a question
        put(m, FunctionClass.INTERNAL, "xml-error-channel", "extractvalue updatexml");
        put(m, SESSION, "session", """
                connection_id current_user current_role session_user system_user user database schema schemas
                version found_rows row_count last_insert_id binlog_gtid_pos wsrep_last_seen_gtid
                wsrep_last_written_gtid""");
        // identifiers built from the server's state: UUID() and SYS_GUID() are version-1 UUIDs carrying the
        // server's MAC address and clock, UUID_SHORT() its server id and start time
        put(m, SESSION, "host-identifier", "uuid sys_guid uuid_short");
        put(m, EXPANDS, "expands", """
                repeat space lpad rpad lpad_oracle rpad_oracle random_bytes sformat replace replace_oracle
                regexp_replace uncompress export_set insert""");
        put(m, AGGREGATE, "aggregate", """
                avg bit_and bit_or bit_xor count group_concat json_arrayagg json_objectagg max min std stddev
                stddev_pop stddev_samp sum var_pop var_samp variance""");
        put(m, WINDOW, "window", """
                cume_dist dense_rank first_value lag last_value lead median nth_value ntile percent_rank
                percentile_cont percentile_disc rank row_number""");
        put(m, SCALAR, "reviewed", """
                abs acos add_months adddate addtime aes_decrypt aes_encrypt ascii asin atan atan2 bin bit_count
                bit_length cast ceil ceiling char char_length character_length charset chr coalesce coercibility
                collation column_add column_check column_create column_delete column_exists column_get column_json
                column_list compress concat concat_operator_oracle concat_ws conv convert convert_tz cos cot crc32
                crc32c curdate current_date current_time current_timestamp curtime date date_add date_format
                date_sub datediff day dayname dayofmonth dayofweek dayofyear decode decode_histogram decode_oracle
                degrees elt encode encrypt exp extract field find_in_set floor format from_base64
                from_days from_unixtime greatest hex hour if ifnull inet6_aton inet6_ntoa inet_aton inet_ntoa instr
                interval is_ipv4 is_ipv4_compat is_ipv4_mapped is_ipv6 isnull json_array json_array_append
                json_array_insert json_compact json_contains json_contains_path json_depth json_detailed
                json_equals json_exists json_extract json_insert json_keys json_length json_loose json_merge
                json_merge_patch json_merge_preserve json_normalize json_object json_overlaps json_pretty json_query
                json_quote json_remove json_replace json_search json_set json_type json_unquote json_valid
                json_value last_day lcase least left length lengthb ln localtime localtimestamp locate log log10
                log2 lower ltrim ltrim_oracle make_set makedate maketime md5 microsecond mid minute mod month
                monthname name_const natural_sort_key now nullif nvl nvl2 oct octet_length old_password ord
                password period_add period_diff pi position pow power quarter quote radians rand regexp_instr
                regexp_substr reverse right round rownum rtrim rtrim_oracle sec_to_time second sha sha1 sha2 sign
                sin soundex sqrt str_to_date strcmp subdate substr substr_oracle substring substring_index subtime
                sysdate tan time time_format time_to_sec timediff timestamp timestampadd timestampdiff
                to_base64 to_char to_days to_seconds trim trim_oracle truncate ucase uncompressed_length unhex
                unix_timestamp upper utc_date utc_time utc_timestamp week weekday weekofyear
                weight_string year yearweek get_format""");
        put(m, SCALAR, "geometry", """
                area asbinary astext aswkb aswkt boundary buffer centroid contains convexhull crosses dimension
                disjoint endpoint envelope equals exteriorring geomcollfromtext geomcollfromwkb
                geometrycollectionfromtext geometrycollectionfromwkb geometryfromtext geometryfromwkb geometryn
                geometrytype geomfromtext geomfromwkb glength interiorringn intersects isclosed isempty isring
                issimple linefromtext linefromwkb linestringfromtext linestringfromwkb mbrcontains mbrdisjoint
                mbrequal mbrintersects mbroverlaps mbrtouches mbrwithin mlinefromtext mlinefromwkb mpointfromtext
                mpointfromwkb mpolyfromtext mpolyfromwkb multilinestringfromtext multilinestringfromwkb
                multipointfromtext multipointfromwkb multipolygonfromtext multipolygonfromwkb numgeometries
                numinteriorrings numpoints overlaps pointfromtext pointfromwkb pointn pointonsurface polyfromtext
                polyfromwkb polygonfromtext polygonfromwkb srid startpoint touches within x y point linestring
                polygon multipoint multilinestring multipolygon geometrycollection st_area st_asbinary
                st_asgeojson st_astext st_aswkb st_aswkt st_boundary st_buffer st_centroid st_contains
                st_convexhull st_crosses st_difference st_dimension st_disjoint st_distance st_distance_sphere
                st_endpoint st_envelope st_equals st_exteriorring st_geomcollfromtext st_geomcollfromwkb
                st_geometrycollectionfromtext st_geometrycollectionfromwkb st_geometryfromtext
                st_geometryfromwkb st_geometryn st_geometrytype st_geomfromgeojson st_geomfromtext
                st_geomfromwkb st_interiorringn st_intersection st_intersects st_isclosed st_isempty st_isring
                st_issimple st_length st_linefromtext st_linefromwkb st_linestringfromtext st_linestringfromwkb
                st_mlinefromtext st_mpointfromtext st_mpointfromwkb st_mpolyfromtext st_multilinestringfromtext
                st_multipointfromtext st_multipointfromwkb st_multipolygonfromtext st_mpolyfromwkb
                st_multipolygonfromwkb st_numgeometries st_numinteriorrings st_numpoints st_overlaps
                st_pointfromtext st_pointfromwkb st_pointn st_pointonsurface st_polyfromtext st_polyfromwkb
                st_polygonfromtext st_polygonfromwkb st_relate st_srid st_startpoint st_symdifference
                st_touches st_union st_within st_x st_y""");
        // words the probe reads as calls that are syntax: select modifiers, operators, date units
        put(m, SCALAR, "syntax", """
                all binary distinct distinctrow high_priority not row straight_join sql_big_result
                sql_buffer_result sql_cache sql_calc_found_rows sql_no_cache sql_small_result sql_tsi_day
                sql_tsi_hour sql_tsi_minute sql_tsi_month sql_tsi_second sql_tsi_year unique match default
                values exists any some character""");
        return m;
    }

    static Map<String, Entry> mariadb(List<Form> forms) {
        // MySQL has functions MariaDB lacks; the catalog of Dialect.MYSQL is MariaDB's (see FunctionCatalog)
        Map<String, Entry> reviewed = mariadbReviewed();
        Builder b = new Builder("MariaDB");
        for (Form f : forms) {
            b.add(f.name(), SCALAR, "reviewed");
            b.unreviewed(f.name());
        }
        return b.build(reviewed);
    }

    // ---------------------------------------------------------------- H2

    /** H2's reviewed classes, by name (all compatibility modes); every listed function must be named here. */
    static Map<String, Entry> h2Reviewed() {
        Map<String, Entry> m = new HashMap<>();
        put(m, FILES, "files", "file_read csvread link_schema");
        put(m, WRITES, "writes", "file_write csvwrite nextval set set_config signal");
        put(m, WAITS, "other-sessions", "abort_session cancel_session");
        put(m, CATALOG, "catalog", """
                db_object_id db_object_sql db_object_size db_object_total_size db_object_approximate_size
                db_object_approximate_total_size disk_space_used data_type_sql format_type obj_description
                has_database_privilege has_schema_privilege has_table_privilege pg_get_expr pg_get_indexdef
                pg_get_userbyid pg_relation_size pg_table_is_visible pg_total_relation_size pg_stat_get_numscans
                pg_encoding_to_char currtid2""");
        put(m, SESSION, "session", """
                autocommit current_catalog current_database current_path current_role current_schema current_user
                database database_path h2version lock_mode lock_timeout memory_free memory_used readonly session_id
                transaction_id version schema currval lastval identity identity_val_local last_insert_id
                scope_identity pg_postmaster_start_time session_user system_user user""");
        put(m, EXPANDS, "expands", """
                repeat space lpad rpad replace regexp_replace expand rawtohex insert secure_rand""");
        put(m, INTERNAL, "table-value", "table unnest table_distinct");
        put(m, AGGREGATE, "aggregate", """
                any any_value array_agg avg bit_and_agg bit_nand_agg bit_nor_agg bit_or_agg bit_xnor_agg
                bit_xor_agg corr count covar_pop covar_samp envelope every gcd_agg group_concat histogram
                json_arrayagg json_objectagg lcm_agg listagg max median min mode percentile_cont percentile_disc
                regr_avgx regr_avgy regr_count regr_intercept regr_r2 regr_slope regr_sxx regr_sxy regr_syy
                stddev_pop stddev_samp string_agg sum var_pop var_samp bit_and bit_or bool_and bool_or some
                stats_mode stddev stddevp var variance varp""");
        put(m, WINDOW, "window", """
                cume_dist dense_rank first_value lag last_value lead nth_value ntile percent_rank rank
                ratio_to_report row_number""");
        put(m, SCALAR, "reviewed", """
                abs acos add_months array_append array_cat array_contains array_get array_length
                array_max_cardinality array_slice array_to_string cardinality regexp_like regexp_substr ascii asin atan atan2 bit_length bitand bitcount
                bitget bitnand bitnor bitnot bitor bitxnor bitxor btrim casewhen ceil ceiling char char_length
                character_length charindex chr coalesce compress concat concat_ws convert cos cosh cot curdate
                current_date current_time current_timestamp curtime date date_trunc dateadd datediff day
                day_of_month day_of_week day_of_year dayname dayofmonth dayofweek dayofyear decode decrypt
                degrees difference encrypt estimated_envelope exp extract floor formatdatetime from_unixtime gcd
                gen_random_uuid getdate greatest hash hextoraw hour ifnull instr intersects isnull iso_day_of_week
                iso_week iso_year json_array json_object last_day lcase lcm least left len length ln localtime
                localtimestamp locate log log10 lower lshift ltrim minute mod month monthname newid
                newsequentialid now nullif nvl nvl2 octet_length ora_hash parsedatetime pi position power quarter
                quote_ident radians rand random random_uuid right rotateleft rotateright round roundmagic rownum
                rshift rtrim second sign sin sinh soundex sqrt stringdecode stringencode stringtoutf8
                substr substring sys_guid sysdate systimestamp tan tanh to_char to_date to_timestamp
                to_timestamp_tz today translate trim trim_array timestampadd timestampdiff trunc truncate truncate_value ucase ulshift
                unix_timestamp upper urshift utf8tostring uuid week xmlattr xmlcdata xmlcomment xmlnode
                xmlstartdoc xmltext year zero""");
        put(m, SCALAR, "syntax", "distinct top cast exists array row values grouping");
        put(m, AGGREGATE, "syntax", "rollup cube");
        put(m, EXPANDS, "syntax", "generate_series system_range");
        return m;
    }

    static Map<String, Entry> h2(List<Form> forms) {
        Map<String, Entry> reviewed = h2Reviewed();
        Builder b = new Builder("H2");
        for (Form f : forms) {
            b.add(f.name(), f.name().contains(".") ? CATALOG : SCALAR, f.name().contains(".") ? "routine" : "reviewed");
            if (!f.name().contains(".")) {
                b.unreviewed(f.name());
            }
        }
        return b.build(reviewed);
    }

    // ---------------------------------------------------------------- SQLite

    /** SQLite's reviewed classes, by name. */
    static Map<String, Entry> sqliteReviewed() {
        Map<String, Entry> m = new HashMap<>();
        put(m, FILES, "loads-code", "load_extension");
        put(m, INTERNAL, "internal", """
                fts3_tokenizer fts5 fts5_source_id fts5_get_locale fts5_insttoken fts5_locale rtreecheck rtreedepth
                rtreenode optimize match subtype""");
        // full-text auxiliary functions read a column of the matched row chosen by number, past column denials
        put(m, TABLES, "column-by-number", "matchinfo offsets snippet highlight bm25");
        put(m, WRITES, "writes", "sqlite_log");
        put(m, SESSION, "session", """
                changes total_changes last_insert_rowid sqlite_version sqlite_source_id sqlite_compileoption_get
                sqlite_compileoption_used""");
        put(m, EXPANDS, "expands", """
                printf format zeroblob randomblob replicate padl padr padc replace hex quote""");
        put(m, SCALAR, "reviewed", """
                random current_date current_time current_timestamp date time datetime julianday strftime unixepoch
                timediff charindex leftstr rightstr proper reverse strfilter atn2 cot coth difference square""");
        put(m, AGGREGATE, "aggregate", """
                avg count group_concat max min string_agg sum total median mode lower_quartile upper_quartile
                stdev variance percentile percentile_cont percentile_disc json_group_array json_group_object
                jsonb_group_array jsonb_group_object""");
        put(m, WINDOW, "window", """
                row_number rank dense_rank percent_rank cume_dist ntile lag lead first_value last_value
                nth_value""");
        put(m, SCALAR, "syntax", "cast exists");
        return m;
    }

    static Map<String, Entry> sqlite(List<Form> forms) {
        Map<String, Entry> reviewed = sqliteReviewed();
        Builder b = new Builder("SQLite");
        for (Form f : forms) {
            String n = f.name();
            if ("direct-only".equals(f.support())) {
                b.add(n, INTERNAL, "direct-only");
            } else if (n.startsWith("sqlite_")) {
                b.add(n, SESSION, "sqlite-family");
            } else if (f.kind() == 'w' || f.kind() == 'a') {
                b.add(n, AGGREGATE, "aggregate");
                if (!reviewed.containsKey(n)) {
                    b.unreviewed(n + " (aggregate)");
                }
            } else if (f.volatility() == 'i' && !n.startsWith("fts") && !n.startsWith("rtree")) {
                b.add(n, SCALAR, "deterministic");
            } else {
                b.add(n, SCALAR, "reviewed");
                b.unreviewed(n + " (not deterministic)");
            }
        }
        return b.build(reviewed);
    }

    // ---------------------------------------------------------------- DuckDB

    /**
     * DuckDB's reviewed classes, by name. The engine reads any file or URL a statement names: every table
     * function, pragma and catalog probe is unsafe unless reviewed here as a function over values.
     */
    static Map<String, Entry> duckdbReviewed() {
        Map<String, Entry> m = new HashMap<>();
        put(m, FILES, "reads-files", """
                read_csv read_csv_auto read_single_csv_file read_parquet parquet_scan read_single_parquet_file
                read_json read_json_auto read_json_objects read_json_objects_auto read_ndjson read_ndjson_auto
                read_ndjson_objects read_single_json_file read_text read_blob read_duckdb glob sniff_csv
                parquet_metadata parquet_file_metadata parquet_full_metadata parquet_kv_metadata parquet_schema
                parquet_bloom_probe import_database copy_database add_parquet_key arrow_scan arrow_scan_dumb
                register_external_resource register_external_resource_type create_external_resource
                deregister_external_resource destroy_external_resource""");
        // query('<sql>') runs SQL the guard never saw
        put(m, TABLES, "runs-sql-text", "query query_table json_execute_serialized_sql");
        // histogram_values(tbl, col) is a table macro that reads a table and column named as arguments.
        // histogram(col) is an aggregate over the values of its group; its table-macro form histogram(tbl, col)
        // is callable only in FROM, where every table function but range and generate_series over constants
        // is refused by the guard and the engine check alike
        put(m, TABLES, "table-by-name", "histogram_values");
        put(m, AGGREGATE, "aggregate; its table form only in FROM", "histogram");
        put(m, WRITES, "writes", """
                checkpoint force_checkpoint truncate_duckdb_logs nextval setval setseed write_log
                enable_checkpoint_on_shutdown disable_checkpoint_on_shutdown enable_logging disable_logging
                enable_object_cache disable_object_cache enable_optimizer disable_optimizer enable_print_progress_bar
                disable_print_progress_bar enable_profile disable_profile enable_profiling disable_profiling
                enable_progress_bar disable_progress_bar enable_verification disable_verification
                verify_parallelism disable_verify_parallelism""");
        put(m, WAITS, "waits", "sleep_ms pg_sleep");
        put(m, SESSION, "session", """
                current_setting getvariable current_query current_query_id current_connection_id
                current_transaction_id currval current_database current_schema current_schemas current_catalog
                current_role current_user session_user user in_search_path txid_current version platform
                user_agent pragma_version pragma_platform pragma_user_agent extension_versions which_secret
                inet_client_addr inet_client_port inet_server_addr inet_server_port pg_conf_load_time
                pg_postmaster_start_time pg_my_temp_schema pg_is_other_temp_schema""");
        put(m, INTERNAL, "internal", """
                test_all_types test_vector_types seq_scan stats vector_type json_serialize_sql
                json_deserialize_sql parse_duckdb_log_message repeat_row summary""");
        put(m, EXPANDS, "expands", """
                range generate_series repeat lpad rpad list_resize array_resize printf format replace
                generate_subscripts unnest string_split_regex regexp_split_to_table bar""");
        // table functions over values: they read nothing but their arguments
        put(m, SCALAR, "reviewed", """
                json_each json_tree random uuid gen_random_uuid uuidv4 uuidv7 error current_date now today
                get_current_time get_current_timestamp transaction_timestamp pg_typeof pg_size_pretty
                icu_calendar_names pg_timezone_names""");
        put(m, AGGREGATE, "aggregate-macro", """
                geomean geometric_mean json_group_array json_group_object json_group_structure variant_group_array
                wavg weighted_avg""");
        // the parser's own forms, which duckdb_functions() does not list
        put(m, SCALAR, "syntax", "cast try_cast coalesce ifnull exists row");
        put(m, AGGREGATE, "syntax", "grouping grouping_id");
        return m;
    }

    static Map<String, Entry> duckdb(List<Form> forms) {
        Map<String, Entry> reviewed = duckdbReviewed();
        Builder b = new Builder("DuckDB");
        for (Form f : forms) {
            String n = f.name();
            if (n.startsWith("__internal")) {
                b.add(n, INTERNAL, "internal");
            } else if (reviewed.containsKey(n)) {
                b.add(n, reviewed.get(n).functionClass(), reviewed.get(n).reason());
            } else if (n.startsWith("duckdb_") || n.startsWith("pragma_") || n.startsWith("show")
                    || Set.of("table_info", "storage_info", "metadata_info", "database_size", "database_list",
                            "functions", "collations", "get_block_size", "format_type", "format_pg_type",
                            "map_to_pg_oid").contains(n)
                    || n.startsWith("pg_") || n.startsWith("has_") && n.endsWith("_privilege")
                    || n.endsWith("_description")) {
                b.add(n, CATALOG, "catalog");
            } else if (f.kind() == 't' || f.kind() == 'p') {
                b.add(n, FILES, "table-function");
                b.unreviewed(n + " (table function or pragma)");
            } else if (f.kind() == 'w') {
                b.add(n, WINDOW, "window");
            } else if (f.kind() == 'a') {
                b.add(n, AGGREGATE, "aggregate");
            } else if (f.volatility() == 'i') {
                b.add(n, SCALAR, "consistent");
            } else if (f.volatility() == '?' && f.support() == null) {
                // a built-in macro of main: SQL over its arguments and other built-ins (list_sum, nullif)
                b.add(n, SCALAR, "macro");
            } else {
                b.add(n, SCALAR, "reviewed");
                b.unreviewed(n + " (volatility " + f.volatility() + (f.support() == null ? "" : ", " + f.support()) + ")");
            }
        }
        return b.build(reviewed);
    }

    static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }
}
