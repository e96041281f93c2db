package dev.sqlagent.guard;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * How the analysis reads the parts of a parser node it has no rule of its own for: every field that can hold a
 * node, through the class's public getters; a class with a part it cannot read is refused (fail closed).
 */
final class TreeFields {

    /**
     * How the walk reads one field: through the class's public getter (never by opening the field with
     * {@code setAccessible}, which a modular host forbids), or directly when the field itself is public.
     */
    record Accessor(String name, Method getter, Field field) {
        Object read(Object node) {
            try {
                return getter != null ? getter.invoke(node) : field.get(node);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("cannot read " + name + " of " + node.getClass().getName(), e);
            }
        }
    }

    /** A field of a walked class with no public way to read it: the class is refused (fail closed). */
    static final Accessor UNREADABLE = new Accessor("", null, null);

    /** Getters whose name is not the field's ("Class.field" to getter). */
    private static final Map<String, String> GETTERS = Map.of(
            "AnalyticExpression.windowDef", "getWindowDefinition",
            "Function.attributeExpression", "getAttribute",
            "FilterOverImpl.orderBy", "getOrderByElements",
            "FilterOverImpl.partitionBy", "getPartitionExpressionList",
            "JsonAggregateFunction.expressionOrderBy", "getExpressionOrderByElements",
            "LikeExpression.escapeExpression", "getEscape",
            "Table.unpivot", "getUnPivot",
            "Table.mysqlHints", "getIndexHint",
            "Offset.offsetExpression", "getOffset");

    static final ClassValue<Accessor[]> FIELDS = new ClassValue<>() {
        @Override
        protected Accessor[] computeValue(Class<?> type) {
            List<Accessor> fields = new ArrayList<>();
            for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
                for (Field f : c.getDeclaredFields()) {
                    int m = f.getModifiers();
                    if (Modifier.isStatic(m) || Modifier.isTransient(m) || f.getType().isPrimitive()
                            || f.getType() == String.class || f.getName().equals("resolvedTable")
                            || isInert(f)) {
                        continue;
                    }
                    Accessor a = accessor(type, c, f);
                    if (a == null) {
                        return new Accessor[] {UNREADABLE};
                    }
                    fields.add(a);
                }
            }
            return fields.toArray(new Accessor[0]);
        }
    };

    /** Fields that can hold no node: enums, boxed primitives, lists of strings or enums. */
    private static boolean isInert(Field f) {
        Class<?> t = f.getType();
        if (t.isEnum() || Number.class.isAssignableFrom(t) || t == Boolean.class || t == Character.class) {
            return true;
        }
        if (List.class.isAssignableFrom(t) && f.getGenericType() instanceof ParameterizedType) {
            Type arg = ((ParameterizedType) f.getGenericType()).getActualTypeArguments()[0];
            return arg == String.class || arg instanceof Class && ((Class<?>) arg).isEnum();
        }
        return false;
    }

    private static Accessor accessor(Class<?> type, Class<?> declaring, Field f) {
        String name = declaring.getSimpleName() + "." + f.getName();
        if (Modifier.isPublic(f.getModifiers()) && Modifier.isPublic(declaring.getModifiers())) {
            return new Accessor(name, null, f);
        }
        List<String> candidates = new ArrayList<>();
        String mapped = GETTERS.get(name);
        if (mapped != null) {
            candidates.add(mapped);
        }
        String cap = Character.toUpperCase(f.getName().charAt(0)) + f.getName().substring(1);
        candidates.add("get" + cap);
        candidates.add("is" + cap);
        for (String candidate : candidates) {
            try {
                Method g = type.getMethod(candidate);
                if (!g.getReturnType().isPrimitive() && g.getParameterCount() == 0
                        && Modifier.isPublic(g.getDeclaringClass().getModifiers())) {
                    return new Accessor(name, g, null);
                }
            } catch (NoSuchMethodException e) {
                // try the next name
            }
        }
        return null;
    }

    private TreeFields() {
    }
}
