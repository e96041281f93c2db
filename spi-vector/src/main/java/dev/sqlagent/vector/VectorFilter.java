package dev.sqlagent.vector;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;

/**
 * A metadata filter that stores can read as well as run: equality, membership and conjunction. A store
 * backed by a database translates it into its own query language (a pgvector store into a
 * {@code WHERE} clause); any store can also simply {@linkplain Predicate#test(Object) test} an entry's
 * metadata with it. Arbitrary
 * {@link Predicate}s remain accepted by {@link VectorStore#search}; they are only run, never read.
 *
 * <p>Build filters with the static factories: {@code VectorFilter.eq("status", "good")},
 * {@code VectorFilter.allOf(eq("status", "good"), in("table", "orders", "customers"))}.
 */
public sealed interface VectorFilter extends Predicate<Map<String, String>>
        permits VectorFilter.Everything, VectorFilter.Eq, VectorFilter.In, VectorFilter.AllOf {

    /**
     * Returns the filter that lets every entry through.
     *
     * @return the filter
     */
    static VectorFilter everything() {
        return Everything.INSTANCE;
    }

    /**
     * Returns a filter for entries whose metadata maps {@code key} to exactly {@code value}.
     *
     * @param key the metadata key, not null
     * @param value the wanted value, not null
     * @return the filter
     * @throws NullPointerException if the key or the value is null
     */
    static VectorFilter eq(String key, String value) {
        return new Eq(key, value);
    }

    /**
     * Returns a filter for entries whose metadata maps {@code key} to one of {@code values}.
     *
     * @param key the metadata key, not null
     * @param values the accepted values, none null; none at all lets no entry through
     * @return the filter
     * @throws NullPointerException if the key or a value is null
     */
    static VectorFilter in(String key, String... values) {
        return new In(key, Set.copyOf(Arrays.asList(values)));
    }

    /**
     * Returns a filter for entries that pass every one of {@code filters}; none at all lets every
     * entry through.
     *
     * @param filters the filters, none null
     * @return the filter
     * @throws NullPointerException if a filter is null
     */
    static VectorFilter allOf(VectorFilter... filters) {
        return new AllOf(List.of(filters));
    }

    /** The filter that lets every entry through; stores may skip filtering for it. */
    enum Everything implements VectorFilter {
        /** The only instance. */
        INSTANCE;

        @Override
        public boolean test(Map<String, String> metadata) {
            return true;
        }
    }

    /**
     * Metadata maps {@code key} to {@code value}.
     *
     * @param key the metadata key
     * @param value the wanted value
     */
    record Eq(String key, String value) implements VectorFilter {

        /**
         * Checks the parts.
         *
         * @param key the metadata key, not null
         * @param value the wanted value, not null
         * @throws NullPointerException if the key or the value is null
         */
        public Eq {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(value, "value");
        }

        @Override
        public boolean test(Map<String, String> metadata) {
            return value.equals(metadata.get(key));
        }
    }

    /**
     * Metadata maps {@code key} to one of {@code values}.
     *
     * @param key the metadata key
     * @param values the accepted values, unmodifiable
     */
    record In(String key, Set<String> values) implements VectorFilter {

        /**
         * Checks and copies the parts.
         *
         * @param key the metadata key, not null
         * @param values the accepted values, none null; copied into an unmodifiable set
         * @throws NullPointerException if the key, the set or a value is null
         */
        public In {
            Objects.requireNonNull(key, "key");
            values = Set.copyOf(values);
        }

        @Override
        public boolean test(Map<String, String> metadata) {
            String v = metadata.get(key);
            return v != null && values.contains(v);
        }
    }

    /**
     * Every one of {@code filters} passes.
     *
     * @param filters the filters, unmodifiable
     */
    record AllOf(List<VectorFilter> filters) implements VectorFilter {

        /**
         * Checks and copies the parts.
         *
         * @param filters the filters, none null; copied into an unmodifiable list
         * @throws NullPointerException if the list or a filter is null
         */
        public AllOf {
            filters = List.copyOf(filters);
        }

        @Override
        public boolean test(Map<String, String> metadata) {
            for (VectorFilter f : filters) {
                if (!f.test(metadata)) {
                    return false;
                }
            }
            return true;
        }
    }
}
