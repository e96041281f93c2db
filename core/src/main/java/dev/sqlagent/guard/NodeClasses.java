package dev.sqlagent.guard;

import java.util.Set;

/**
 * The JSqlParser node classes the guard analyses. Any other class found in a statement is refused
 * ({@link ViolationType#UNSUPPORTED_CONSTRUCT}): a construct the guard was not written for is never let
 * through unchecked. Subclasses are not implied; each class is listed exactly.
 */
final class NodeClasses {

    static final Set<Class<?>> ALLOWED = Set.of(
            net.sf.jsqlparser.expression.Alias.class,
            net.sf.jsqlparser.expression.Alias.AliasColumn.class,
            net.sf.jsqlparser.expression.AllValue.class,
            net.sf.jsqlparser.expression.AnalyticExpression.class,
            net.sf.jsqlparser.expression.AnyComparisonExpression.class,
            net.sf.jsqlparser.expression.ArrayConstructor.class,
            net.sf.jsqlparser.expression.ArrayExpression.class,
            net.sf.jsqlparser.expression.BooleanValue.class,
            net.sf.jsqlparser.expression.CaseExpression.class,
            net.sf.jsqlparser.expression.CastExpression.class,
            net.sf.jsqlparser.expression.CollateExpression.class,
            net.sf.jsqlparser.expression.DateTimeLiteralExpression.class,
            net.sf.jsqlparser.expression.DateValue.class,
            net.sf.jsqlparser.expression.DateUnitExpression.class,
            net.sf.jsqlparser.expression.DoubleValue.class,
            net.sf.jsqlparser.expression.ExtractExpression.class,
            net.sf.jsqlparser.expression.Function.class,
            net.sf.jsqlparser.expression.HexValue.class,
            net.sf.jsqlparser.expression.IntervalExpression.class,
            net.sf.jsqlparser.expression.LongValue.class,
            // DuckDB only (AstAnalyzer refuses them elsewhere): lambdas, scoped; struct literals {'k': v}
            net.sf.jsqlparser.expression.LambdaExpression.class,
            net.sf.jsqlparser.expression.StructType.class,
            // DuckDB only (AstAnalyzer refuses it elsewhere): field access on a value
            net.sf.jsqlparser.expression.RowGetExpression.class,
            // DuckDB struct_pack(n := x) and PostgreSQL f(n => x): the name is a String the walk ignores, the value is walked
            net.sf.jsqlparser.expression.PostgresNamedFunctionParameter.class,
            // PostgreSQL only (AstAnalyzer refuses it elsewhere): f(n => x), which the parser reads so when n is a
            // keyword (make_interval(years => 1)); the name is a String the walk ignores, the value is walked
            net.sf.jsqlparser.expression.OracleNamedFunctionParameter.class,
            // MySQL and MariaDB only (AstAnalyzer refuses it elsewhere): a <=> b, the NULL-safe equality the
            // parser names after pgvector's operator; both operands are walked
            net.sf.jsqlparser.expression.operators.relational.CosineSimilarity.class,
            // PostgreSQL only (AstAnalyzer refuses it elsewhere): containment a @> b, a <@ b; both operands walked
            net.sf.jsqlparser.expression.operators.relational.JsonOperator.class,
            net.sf.jsqlparser.expression.NotExpression.class,
            net.sf.jsqlparser.expression.NullValue.class,
            net.sf.jsqlparser.expression.OrderByClause.class,
            net.sf.jsqlparser.expression.PartitionByClause.class,
            net.sf.jsqlparser.expression.RowConstructor.class,
            net.sf.jsqlparser.expression.SignedExpression.class,
            net.sf.jsqlparser.expression.StringValue.class,
            net.sf.jsqlparser.expression.TimeKeyExpression.class,
            net.sf.jsqlparser.expression.TimeValue.class,
            net.sf.jsqlparser.expression.TimestampValue.class,
            net.sf.jsqlparser.expression.TrimFunction.class,
            net.sf.jsqlparser.expression.WhenClause.class,
            net.sf.jsqlparser.expression.WindowDefinition.class,
            net.sf.jsqlparser.expression.WindowElement.class,
            net.sf.jsqlparser.expression.WindowOffset.class,
            net.sf.jsqlparser.expression.WindowRange.class,
            net.sf.jsqlparser.expression.MySQLGroupConcat.class,
            net.sf.jsqlparser.expression.MySQLIndexHint.class,
            net.sf.jsqlparser.expression.SQLServerHints.class,
            net.sf.jsqlparser.expression.FilterOverImpl.class,
            net.sf.jsqlparser.expression.IntervalQualifier.class,
            net.sf.jsqlparser.expression.operators.arithmetic.Addition.class,
            net.sf.jsqlparser.expression.operators.arithmetic.BitwiseAnd.class,
            net.sf.jsqlparser.expression.operators.arithmetic.BitwiseOr.class,
            net.sf.jsqlparser.expression.operators.arithmetic.BitwiseXor.class,
            net.sf.jsqlparser.expression.operators.arithmetic.Concat.class,
            net.sf.jsqlparser.expression.operators.arithmetic.Division.class,
            net.sf.jsqlparser.expression.operators.arithmetic.IntegerDivision.class,
            net.sf.jsqlparser.expression.operators.arithmetic.Modulo.class,
            net.sf.jsqlparser.expression.operators.arithmetic.Multiplication.class,
            net.sf.jsqlparser.expression.operators.arithmetic.Subtraction.class,
            net.sf.jsqlparser.expression.operators.conditional.AndExpression.class,
            net.sf.jsqlparser.expression.operators.conditional.OrExpression.class,
            net.sf.jsqlparser.expression.operators.conditional.XorExpression.class,
            net.sf.jsqlparser.expression.operators.relational.Between.class,
            net.sf.jsqlparser.expression.operators.relational.EqualsTo.class,
            net.sf.jsqlparser.expression.operators.relational.ExistsExpression.class,
            net.sf.jsqlparser.expression.operators.relational.ExpressionList.class,
            net.sf.jsqlparser.expression.operators.relational.GreaterThan.class,
            net.sf.jsqlparser.expression.operators.relational.GreaterThanEquals.class,
            net.sf.jsqlparser.expression.operators.relational.InExpression.class,
            net.sf.jsqlparser.expression.operators.relational.IsBooleanExpression.class,
            net.sf.jsqlparser.expression.operators.relational.IsDistinctExpression.class,
            net.sf.jsqlparser.expression.operators.relational.IsNullExpression.class,
            net.sf.jsqlparser.expression.operators.relational.LikeExpression.class,
            net.sf.jsqlparser.expression.operators.relational.MinorThan.class,
            net.sf.jsqlparser.expression.operators.relational.MinorThanEquals.class,
            net.sf.jsqlparser.expression.operators.relational.NotEqualsTo.class,
            net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList.class,
            net.sf.jsqlparser.expression.operators.relational.NamedExpressionList.class,
            net.sf.jsqlparser.expression.JsonExpression.class,
            // JSON_OBJECT / JSON_ARRAY: walked by hand (AstAnalyzer.jsonFunction), only the forms engines read alike
            net.sf.jsqlparser.expression.JsonFunction.class,
            // JSON_ARRAYAGG / JSON_OBJECTAGG: checked by hand (AstAnalyzer.jsonAggregate), then walked field by field
            net.sf.jsqlparser.expression.JsonAggregateFunction.class,
            net.sf.jsqlparser.expression.Function.KeywordArgument.class,
            net.sf.jsqlparser.expression.operators.relational.SimilarToExpression.class,
            net.sf.jsqlparser.expression.operators.relational.RegExpMatchOperator.class,
            net.sf.jsqlparser.statement.create.table.ColDataType.class,
            net.sf.jsqlparser.expression.TimezoneExpression.class,
            net.sf.jsqlparser.schema.Column.class,
            net.sf.jsqlparser.schema.Table.class,
            net.sf.jsqlparser.schema.Database.class,
            net.sf.jsqlparser.statement.select.AllColumns.class,
            net.sf.jsqlparser.statement.select.AllTableColumns.class,
            net.sf.jsqlparser.statement.select.Distinct.class,
            net.sf.jsqlparser.statement.select.ExceptOp.class,
            net.sf.jsqlparser.statement.select.Fetch.class,
            net.sf.jsqlparser.statement.select.GroupByElement.class,
            net.sf.jsqlparser.statement.select.IntersectOp.class,
            net.sf.jsqlparser.statement.select.Join.class,
            net.sf.jsqlparser.statement.select.LateralSubSelect.class,
            net.sf.jsqlparser.statement.select.Limit.class,
            net.sf.jsqlparser.statement.select.MinusOp.class,
            net.sf.jsqlparser.statement.select.Offset.class,
            net.sf.jsqlparser.statement.select.OrderByElement.class,
            net.sf.jsqlparser.statement.select.ParenthesedFromItem.class,
            net.sf.jsqlparser.statement.select.ParenthesedSelect.class,
            net.sf.jsqlparser.statement.select.PlainSelect.class,
            net.sf.jsqlparser.statement.select.SelectItem.class,
            net.sf.jsqlparser.statement.select.SetOperationList.class,
            net.sf.jsqlparser.statement.select.Top.class,
            net.sf.jsqlparser.statement.select.UnionOp.class,
            net.sf.jsqlparser.statement.select.WithItem.class);

    private NodeClasses() {
    }
}
