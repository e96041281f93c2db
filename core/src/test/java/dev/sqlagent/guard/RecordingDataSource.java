package dev.sqlagent.guard;

import java.io.PrintWriter;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A data source that records every statement the library sends to the database, with its parameters, as
 * the database receives it: the judge's view of what reached the engine, independent of what the library
 * reports. A call is recorded when it is executed ({@code execute*} on a statement or prepared statement),
 * with whether the engine raised an error.
 * Thread-safe.
 */
final class RecordingDataSource implements DataSource {

    /**
     * One statement the database was asked to run.
     *
     * @param sql its text
     * @param parameters the values bound, in placeholder order
     * @param ok whether the engine ran it without raising an error
     */
    record Call(String sql, List<Object> parameters, boolean ok) {
        boolean explain() {
            return sql.stripLeading().toUpperCase(Locale.ROOT).startsWith("EXPLAIN");
        }
    }

    /** The proxies live in the test's class loader, which also sees the drivers (as a pool's wrappers do). */
    private static final ClassLoader LOADER = RecordingDataSource.class.getClassLoader();

    private final DataSource target;
    private final List<Call> calls = new ArrayList<>();

    RecordingDataSource(DataSource target) {
        this.target = target;
    }

    /** @return the number of calls so far, a mark for {@link #since(int)} */
    synchronized int mark() {
        return calls.size();
    }

    /** @return the calls recorded since a mark */
    synchronized List<Call> since(int mark) {
        return List.copyOf(calls.subList(mark, calls.size()));
    }

    private synchronized void record(Call c) {
        calls.add(c);
    }

    @Override
    public Connection getConnection() throws SQLException {
        return wrap(target.getConnection());
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        return wrap(target.getConnection(username, password));
    }

    private Connection wrap(Connection real) {
        InvocationHandler h = (proxy, method, args) -> {
            Object result = invoke(real, method, args);
            if (result instanceof PreparedStatement ps && method.getName().startsWith("prepare")) {
                return prepared(ps, (String) args[0]);
            }
            if (result instanceof Statement st && method.getName().equals("createStatement")) {
                return plain(st);
            }
            return result;
        };
        return (Connection) Proxy.newProxyInstance(LOADER, new Class<?>[] {Connection.class}, h);
    }

    private Statement plain(Statement real) {
        InvocationHandler h = (proxy, method, args) -> {
            if (method.getName().startsWith("execute") && args != null && args.length > 0 && args[0] instanceof String sql) {
                return recorded(real, method, args, sql, List.of());
            }
            return invoke(real, method, args);
        };
        return (Statement) Proxy.newProxyInstance(LOADER, new Class<?>[] {Statement.class}, h);
    }

    private PreparedStatement prepared(PreparedStatement real, String sql) {
        TreeMap<Integer, Object> params = new TreeMap<>();
        InvocationHandler h = (proxy, method, args) -> {
            String name = method.getName();
            if (name.startsWith("set") && args != null && args.length >= 2 && args[0] instanceof Integer index
                    && !name.equals("setFetchSize") && !name.equals("setMaxRows") && !name.equals("setQueryTimeout")
                    && !name.equals("setFetchDirection") && !name.equals("setMaxFieldSize")) {
                params.put(index, args[1]);
            } else if (name.equals("clearParameters")) {
                params.clear();
            } else if (name.startsWith("execute")) {
                String text = args != null && args.length > 0 && args[0] instanceof String s ? s : sql;
                return recorded(real, method, args, text, new ArrayList<>(params.values()));
            }
            return invoke(real, method, args);
        };
        return (PreparedStatement) Proxy.newProxyInstance(LOADER,
                new Class<?>[] {PreparedStatement.class}, h);
    }

    private Object recorded(Object target, Method method, Object[] args, String sql, List<Object> params)
            throws Throwable {
        try {
            Object result = invoke(target, method, args);
            record(new Call(sql, Collections.unmodifiableList(params), true));
            return result;
        } catch (Throwable t) {
            record(new Call(sql, Collections.unmodifiableList(params), false));
            throw t;
        }
    }

    private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    @Override
    public PrintWriter getLogWriter() throws SQLException {
        return target.getLogWriter();
    }

    @Override
    public void setLogWriter(PrintWriter out) throws SQLException {
        target.setLogWriter(out);
    }

    @Override
    public void setLoginTimeout(int seconds) throws SQLException {
        target.setLoginTimeout(seconds);
    }

    @Override
    public int getLoginTimeout() throws SQLException {
        return target.getLoginTimeout();
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        return target.getParentLogger();
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        return target.unwrap(iface);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) throws SQLException {
        return target.isWrapperFor(iface);
    }
}
