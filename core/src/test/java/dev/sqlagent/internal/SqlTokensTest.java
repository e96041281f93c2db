package dev.sqlagent.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SqlTokensTest {

    @Test
    void keywordsAndUnquotedNamesCompareWithoutCase() {
        assertThat(SqlTokens.same("SELECT Name FROM T", "select name from t")).isTrue();
    }

    @Test
    void literalsAndQuotedNamesCompareExactly() {
        assertThat(SqlTokens.same("SELECT a FROM t WHERE r = 'east'", "SELECT a FROM t WHERE r = 'East'")).isFalse();
        assertThat(SqlTokens.same("SELECT \"name\" FROM t", "SELECT \"NAME\" FROM t")).isFalse();
        assertThat(SqlTokens.same("SELECT `a` FROM t", "SELECT `A` FROM t")).isFalse();
        assertThat(SqlTokens.same("SELECT [a] FROM t", "SELECT [A] FROM t")).isFalse();
        assertThat(SqlTokens.same("SELECT 'a b' FROM t", "SELECT 'a  b' FROM t")).isFalse();
        assertThat(SqlTokens.same("SELECT 'it''s' FROM t", "SELECT 'it''S' FROM t")).isFalse();
    }

    @Test
    void whitespaceCommentsAndTrailingSemicolonsAreIgnored() {
        assertThat(SqlTokens.same("SELECT a\n  FROM t -- why\n;", "SELECT a FROM /* c */ t;;")).isTrue();
        assertThat(SqlTokens.same("SELECT a FROM t", "SELECT a FROM t WHERE 1 = 1")).isFalse();
    }

    @Test
    void aCommentMarkerInsideALiteralIsPartOfTheLiteral() {
        assertThat(SqlTokens.same("SELECT '--x' FROM t", "SELECT '--y' FROM t")).isFalse();
        assertThat(SqlTokens.of("SELECT '/*' FROM t")).containsExactly("select", "'/*'", "from", "t");
    }

    @Test
    void castsComparisonsAndPlaceholdersAreTokens() {
        assertThat(SqlTokens.of("a::text<=:b")).containsExactly("a", "::", "text", "<=", ":", "b");
    }

    @Test
    void topLevelOrderByIsToldApartFromOneInASubqueryOrAString() {
        assertThat(SqlTokens.ordersAtTopLevel("SELECT a FROM t ORDER BY a")).isTrue();
        assertThat(SqlTokens.ordersAtTopLevel("select a from t order\n  by a desc")).isTrue();
        assertThat(SqlTokens.ordersAtTopLevel("SELECT a FROM (SELECT a FROM t ORDER BY a) x")).isFalse();
        assertThat(SqlTokens.ordersAtTopLevel("SELECT 'order by' FROM t")).isFalse();
        assertThat(SqlTokens.ordersAtTopLevel("SELECT reorder FROM t")).isFalse();
    }
}
