/**
 * What the model is told about the database, and how it is kept within a prompt's budget.
 *
 * <p>A {@link dev.sqlagent.schema.SchemaCatalog} holds the tables, columns and keys the model may know,
 * restricted to what the guard's policy allows, and its {@link dev.sqlagent.schema.JoinGraph} (declared
 * foreign keys and keys inferred from names). A {@link dev.sqlagent.schema.SchemaEnrichment} adds what
 * only the host knows: descriptions, coded values, business terms, sample values;
 * {@link dev.sqlagent.schema.SampleValues} reads sample values from the database with bounded queries.
 *
 * <p>{@link dev.sqlagent.schema.SchemaRenderer} writes a catalog, or a selection of it, as DDL or Markdown
 * for a prompt, never above a budget counted by a {@link dev.sqlagent.schema.TokenEstimator}, and says in
 * the {@link dev.sqlagent.schema.RenderedSchema} what it had to leave out.
 * {@link dev.sqlagent.schema.SchemaCompletion} completes a selector model's choice of tables and columns
 * with the bridges and keys needed to join them.
 */
package dev.sqlagent.schema;
