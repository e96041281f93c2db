package dev.sqlagent.choose;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sqlagent.execution.ResultColumn;
import dev.sqlagent.execution.ResultTable;
import dev.sqlagent.schema.SchemaCatalog;
import dev.sqlagent.schema.SchemaEnrichment;
import java.sql.Types;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each signal on synthetic results: no database, no model. */
class CandidateChooserTest {

    private final CandidateChooser chooser = CandidateChooser.standard();

    /** A result: column names, then rows as arrays. */
    static ResultTable table(List<String> columns, Object[]... rows) {
        List<ResultColumn> cols = new ArrayList<>();
        for (String c : columns) {
            cols.add(new ResultColumn(c, "VARCHAR", Types.VARCHAR));
        }
        List<List<Object>> rs = new ArrayList<>();
        for (Object[] r : rows) {
            rs.add(Arrays.asList(r));
        }
        return new ResultTable(cols, rs, false, Duration.ZERO);
    }

    private static Object[] row(Object... values) {
        return values;
    }

    private static ChoiceCandidate c(int i, String sql, ResultTable t) {
        return ChoiceCandidate.of(i, sql, t);
    }

    @Test
    void theLargerGroupWinsWhenNothingElseDiffers() {
        ResultTable three = table(List.of("count(*)"), row(3L));
        CandidateChooser.Choice ch = chooser.choose("How many singers are there?", null, List.of(
                c(0, "SELECT count(*) FROM singer WHERE a = 1", table(List.of("count(*)"), row(4L))),
                c(1, "SELECT count(*) FROM singer", three), c(2, "SELECT COUNT(*) FROM singer", three)));

        assertThat(ch.chosen()).isEqualTo(1);
        assertThat(ch.rule()).isEqualTo("majority");
        assertThat(ch.groupSizes()).containsExactly(2, 1);
    }

    @Test
    void oneGroupIsUnanimousAndOneCandidateIsOnly() {
        ResultTable t = table(List.of("name"), row("a"));
        assertThat(chooser.choose("Names?", null, List.of(c(0, "SELECT name FROM t", t), c(1, "SELECT name FROM t", t)))
                .rule()).isEqualTo("unanimous");
        assertThat(chooser.choose("Names?", null, List.of(c(4, "SELECT name FROM t", t))).chosen()).isEqualTo(4);
        assertThat(chooser.choose("Names?", null, List.of(c(4, "SELECT name FROM t", t))).rule()).isEqualTo("only");
    }

    @Test
    void anUncontestedChoiceIsTheChoiceTheScoresWouldMake() {
        // results in two column orders, SQL with and without ORDER BY: the member taken within a group
        // depends on both, and on the question's word order
        ResultTable nameAge = table(List.of("name", "age"), row("a", 1), row("b", 2));
        ResultTable ageName = table(List.of("age", "name"), row(1, "a"), row(2, "b"));
        ResultTable other = table(List.of("name", "age"), row("c", 3));
        List<ResultTable> results = List.of(nameAge, ageName, other);
        List<String> sqls = List.of("SELECT name, age FROM p", "SELECT age, name FROM p ORDER BY age",
                "SELECT name, age FROM p ORDER BY name", "SELECT age, name FROM p");
        List<String> questions = List.of("List the name and age of each person.", "What are the ages and names?",
                "Sort people by age and give their names.");
        java.util.Random random = new java.util.Random(7);
        int uncontested = 0;
        for (int trial = 0; trial < 500; trial++) {
            int n = 1 + random.nextInt(4);
            List<ChoiceCandidate> cs = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                ResultTable t = results.get(random.nextInt(random.nextInt(5) == 0 ? 3 : 2));
                String sql = sqls.get(random.nextInt(sqls.size()));
                cs.add(c(i * 2 + random.nextInt(2), sql, t));
            }
            String q = questions.get(random.nextInt(questions.size()));
            CandidateChooser.Choice full = chooser.choose(q, null, cs);
            java.util.Optional<CandidateChooser.Choice> quick = chooser.uncontested(q, cs);
            assertThat(quick.isPresent()).as("trial %d", trial).isEqualTo(full.groups().size() == 1);
            if (quick.isPresent()) {
                uncontested++;
                assertThat(quick.get().chosen()).as("trial %d", trial).isEqualTo(full.chosen());
                assertThat(quick.get().rule()).isEqualTo(full.rule());
                assertThat(quick.get().groupSizes()).isEqualTo(full.groupSizes());
            }
        }
        assertThat(uncontested).isBetween(100, 450); // both paths were exercised
    }

    @Test
    void uncontestedRefusesWhatChooseRefuses() {
        ResultTable t = table(List.of("name"), row("a"));
        assertThatThrownBy(() -> chooser.uncontested("q", List.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> chooser.uncontested("q", List.of(c(1, "SELECT 1", t), c(1, "SELECT 2", t))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("distinct");
    }

    @Test
    void anEmptyResultLosesATieAndEvenAVoteToOneThatSaysSomething() {
        ResultTable empty = table(List.of("country"));
        ResultTable usa = table(List.of("country"), row("USA"));
        CandidateChooser.Choice tie = chooser.choose("What country is JetBlue Airways in?", null,
                List.of(c(0, "SELECT country FROM airlines WHERE airline = 'Jetblue'", empty),
                        c(1, "SELECT country FROM airlines WHERE airline = 'JetBlue'", usa)));
        assertThat(tie.chosen()).isEqualTo(1);
        assertThat(tie.rule()).isEqualTo("signals");
        assertThat(tie.signal()).isEqualTo("degenerate");

        CandidateChooser.Choice overturn = chooser.choose("What country is JetBlue Airways in?", null,
                List.of(c(0, "SELECT country FROM airlines WHERE airline = 'Jetblue'", empty),
                        c(1, "SELECT country FROM airlines WHERE airline = 'Jetblue' ", empty),
                        c(2, "SELECT country FROM airlines WHERE airline = 'JetBlue'", usa)));
        assertThat(overturn.chosen()).isEqualTo(2);
        assertThat(overturn.rule()).isEqualTo("overturn");
    }

    @Test
    void aCountOfZeroIsDegenerateButNotWhenTheQuestionAsksWhetherSomethingExists() {
        assertThat(CandidateChooser.degenerate(table(List.of("count(*)"), row(0L)))).isTrue();
        assertThat(CandidateChooser.degenerate(table(List.of("a", "b"), row(null, 0.0)))).isTrue();
        assertThat(CandidateChooser.degenerate(table(List.of("count(*)"), row(2L)))).isFalse();
        assertThat(CandidateChooser.degenerate(table(List.of("a"), row(0L), row(0L)))).isFalse();

        ResultTable none = table(List.of("name"));
        ResultTable some = table(List.of("name"), row("x"));
        CandidateChooser.Choice ch = chooser.choose("Are there any dogs older than 30?", null,
                List.of(c(0, "SELECT name FROM dogs WHERE age > 30", none), c(1, "SELECT name FROM dogs", some)));
        assertThat(ch.groups().get(0).values().get("degenerate")).isZero();
        assertThat(ch.groups().get(1).values().get("degenerate")).isZero();
    }

    @Test
    void howManyWantsOneRowAndTheMostWantsALimit() {
        QuestionCues count = QuestionCues.of("How many dogs are there?");
        assertThat(CandidateChooser.shapeFit(count, SqlShape.of("SELECT count(*) FROM dogs"),
                table(List.of("c"), row(3L)))).isEqualTo(1);
        assertThat(CandidateChooser.shapeFit(count, SqlShape.of("SELECT breed, count(*) FROM dogs GROUP BY breed"),
                table(List.of("b", "c"), row("x", 1L), row("y", 2L)))).isEqualTo(-1);

        QuestionCues most = QuestionCues.of("Which city has the most flights?");
        assertThat(most.superlative()).isTrue();
        assertThat(CandidateChooser.shapeFit(most, SqlShape.of("SELECT city FROM f GROUP BY city ORDER BY count(*) DESC LIMIT 1"),
                table(List.of("city"), row("A")))).isEqualTo(1);
        assertThat(CandidateChooser.shapeFit(most, SqlShape.of("SELECT city FROM f"),
                table(List.of("city"), row("A"), row("B")))).isEqualTo(-1);
        assertThat(QuestionCues.of("Show airports with at most 3 gates").superlative()).isFalse();

        QuestionCues chinese = QuestionCues.of("每个部门有多少名员工？");
        assertThat(chinese.count()).isTrue();
        assertThat(chinese.grouping()).isTrue();
        assertThat(CandidateChooser.shapeFit(chinese, SqlShape.of("SELECT d, count(*) FROM e GROUP BY d"),
                table(List.of("d", "c"), row("x", 1L), row("y", 2L)))).isEqualTo(1);
        assertThat(QuestionCues.of("工资最高的员工是谁？").superlative()).isTrue();
    }

    @Test
    void differentWantsNoRepeatedRowsAndSortedWantsAnOrderBy() {
        QuestionCues distinct = QuestionCues.of("What are the different descriptions of templates?");
        assertThat(CandidateChooser.shapeFit(distinct, SqlShape.of("SELECT DISTINCT d FROM t"),
                table(List.of("d"), row("a"), row("b")))).isEqualTo(1);
        assertThat(CandidateChooser.shapeFit(distinct, SqlShape.of("SELECT d FROM t"),
                table(List.of("d"), row("a"), row("a")))).isEqualTo(-1);

        QuestionCues sorted = QuestionCues.of("List the names sorted by age.");
        assertThat(CandidateChooser.shapeFit(sorted, SqlShape.of("SELECT name FROM p ORDER BY age"),
                table(List.of("name"), row("a")))).isEqualTo(1);
        assertThat(CandidateChooser.shapeFit(sorted, SqlShape.of("SELECT name FROM (SELECT * FROM p ORDER BY age)"),
                table(List.of("name"), row("a")))).isEqualTo(-1);
    }

    @Test
    void theShapeBreaksATieBetweenTwoSingleCandidates() {
        CandidateChooser.Choice ch = chooser.choose("What is the name of the oldest singer?", null, List.of(
                c(0, "SELECT name FROM singer WHERE age = (SELECT max(age) FROM singer)",
                        table(List.of("name"), row("a"), row("b"))),
                c(1, "SELECT name FROM singer ORDER BY age DESC LIMIT 1", table(List.of("name"), row("a")))));
        assertThat(ch.chosen()).isEqualTo(1);
        assertThat(ch.rule()).isEqualTo("signals");
    }

    @Test
    void nearlyEqualResultsSupportEachOther() {
        ResultTable names = table(List.of("name"), row("a"), row("b"));
        ResultTable namesAndAges = table(List.of("name", "age"), row("a", 30L), row("b", 40L));
        ResultTable moreNames = table(List.of("name"), row("a"), row("b"), row("c"));
        ResultTable other = table(List.of("title"), row("z"));
        assertThat(chooser.nearlyEqual(names, namesAndAges)).isTrue();
        assertThat(chooser.nearlyEqual(namesAndAges, names)).isTrue();
        assertThat(chooser.nearlyEqual(names, moreNames)).isTrue();
        assertThat(chooser.nearlyEqual(names, other)).isFalse();
        assertThat(chooser.nearlyEqual(table(List.of("name")), names)).isFalse();

        // three different results: the two that nearly agree beat the odd one out, although it comes first
        CandidateChooser.Choice ch = chooser.choose("List the names of the members.", null, List.of(
                c(0, "SELECT title FROM members", other), c(1, "SELECT name FROM members", names),
                c(2, "SELECT name, age FROM members", namesAndAges)));
        assertThat(ch.chosen()).isEqualTo(1);
        assertThat(ch.groups().get(0).values().get("near")).isEqualTo(1.0);
    }

    @Test
    void theSqlThatReadsWhatTheQuestionNamesWins() {
        SchemaCatalog catalog = SchemaCatalog.of(List.of(
                table("car_makers", "id", "maker", "full_name"), table("model_list", "model_id", "maker", "model"),
                table("car_names", "make_id", "model", "make"))).enrich(SchemaEnrichment.builder()
                .synonym("producer", "car_makers").build());
        CandidateChooser.Choice ch = chooser.choose("How many models does each producer make?", catalog, List.of(
                c(0, "SELECT T1.id, count(*) FROM car_makers AS T1 JOIN car_names AS T2 ON T1.id = T2.make_id GROUP BY T1.id",
                        table(List.of("id", "count(*)"), row(1L, 3L), row(2L, 1L))),
                c(1, "SELECT T1.id, count(*) FROM car_makers AS T1 JOIN model_list AS T2 ON T1.id = T2.maker GROUP BY T1.id",
                        table(List.of("id", "count(*)"), row(1L, 1L), row(2L, 2L)))));
        assertThat(ch.chosen()).isEqualTo(1);
        assertThat(ch.signal()).isEqualTo("link");
        assertThat(ch.cues()).contains("model_list").contains("car_makers");
    }

    @Test
    void verifierFindingsCountAgainstAResult() {
        ResultTable a = table(List.of("name"), row("a"));
        ResultTable b = table(List.of("name"), row("b"));
        CandidateChooser.Choice ch = chooser.choose("Names?", null, List.of(
                new ChoiceCandidate(0, "SELECT name FROM t WHERE x = 5", a, List.of("5 missing"), List.of()),
                new ChoiceCandidate(1, "SELECT name FROM t WHERE x = 6", b, List.of(), List.of())));
        assertThat(ch.chosen()).isEqualTo(1);
        assertThat(ch.signal()).isEqualTo("findings");
        assertThat(ch.explain()).contains("findings");
    }

    @Test
    void aFullTieGoesToTheEarliestByOrder() {
        CandidateChooser.Choice ch = chooser.choose("Names?", null, List.of(
                c(0, "SELECT name FROM t WHERE x = 1", table(List.of("name"), row("a"))),
                c(1, "SELECT name FROM t WHERE x = 2", table(List.of("name"), row("b")))));
        assertThat(ch.chosen()).isZero();
        assertThat(ch.rule()).isEqualTo("order");
        assertThat(ch.signal()).isEmpty();
    }

    @Test
    void withinAGroupTheMemberThatSortsAndFollowsTheQuestionsColumnOrderIsTaken() {
        ResultTable ageName = table(List.of("age", "name"), row(30L, "a"), row(40L, "b"));
        ResultTable nameAge = table(List.of("name", "age"), row("a", 30L), row("b", 40L));
        CandidateChooser.Choice ch = chooser.choose("Show the name and age of every singer.", null,
                List.of(c(0, "SELECT age, name FROM singer", ageName), c(1, "SELECT name, age FROM singer", nameAge)));
        assertThat(ch.rule()).isEqualTo("unanimous");
        assertThat(ch.chosen()).isEqualTo(1);

        ResultTable sorted = table(List.of("name"), row("b"), row("a"));
        ResultTable unsorted = table(List.of("name"), row("a"), row("b"));
        assertThat(chooser.choose("Names by age", null, List.of(c(0, "SELECT name FROM s", unsorted),
                c(1, "SELECT name FROM s ORDER BY age DESC", sorted))).chosen()).isEqualTo(1);
    }

    @Test
    void weightsOfZeroAreThePlainVote() {
        CandidateChooser vote = CandidateChooser.withWeights(ChooserWeights.VOTE_ONLY);
        ResultTable empty = table(List.of("country"));
        CandidateChooser.Choice ch = vote.choose("Which country?", null, List.of(
                c(0, "SELECT country FROM a WHERE x = 'q'", empty), c(1, "SELECT country FROM a", table(List.of("country"), row("X")))));
        assertThat(ch.chosen()).isZero();
        assertThat(ch.rule()).isEqualTo("order");
        assertThatThrownBy(() -> new ChooserWeights(1, -1, 0, 0, 0, 0, 0, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void badInputIsRefused() {
        ResultTable t = table(List.of("a"), row(1L));
        assertThatThrownBy(() -> chooser.choose("q", null, List.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> chooser.choose("q", null, List.of(c(0, "SELECT 1", t), c(0, "SELECT 2", t))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("distinct");
    }

    private static SchemaCatalog.Table table(String name, String... columns) {
        List<SchemaCatalog.Column> cols = new ArrayList<>();
        for (String c : columns) {
            cols.add(new SchemaCatalog.Column(c, "TEXT", true, ""));
        }
        return new SchemaCatalog.Table(name, cols, List.of(), List.of(), "");
    }
}
