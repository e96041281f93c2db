package dev.sqlagent.testkit;

import dev.sqlagent.llm.LlmClient;
import dev.sqlagent.llm.LlmException;
import dev.sqlagent.llm.LlmRequest;
import dev.sqlagent.llm.LlmResponse;
import dev.sqlagent.llm.ModelRole;
import dev.sqlagent.llm.TokenUsage;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * A model for tests: it answers from replies queued in advance, records every request and can inject
 * faults. Like a mock web server, it scripts the outside world, not the agent's internals.
 *
 * <pre>{@code
 * ScriptedLlm llm = ScriptedLlm.create()
 *     .enqueueFor(AgentRole.REFINER, "SELECT name FROM order")    // first generation
 *     .enqueueFor(AgentRole.REFINER, "SELECT name FROM orders");  // the single correction
 * AgentResult result = agent.ask("...");
 * assertThat(llm.requests(AgentRole.REFINER)).hasSize(2);
 * }</pre>
 *
 * <p>Roles are given as the agent's {@code dev.sqlagent.AgentRole} constants or as their ids
 * ({@code "refiner"}, {@code "selector"}, …: the {@link LlmRequest#role()} of the agent's requests). The
 * kit does not depend on the agent's core module (whose tests use the kit): the role overloads take the
 * {@link ModelRole} interface of the model SPI, which {@code AgentRole} implements.
 *
 * <p>A request is answered from the queue of its {@linkplain LlmRequest#role() role} first, then from
 * the shared queue ({@link #enqueue(String...)}, whose arguments are the choices of one reply, not a
 * role), then by the fallback if one is set. With nothing to answer it throws an {@link LlmException} of
 * kind {@code OTHER} naming the role, so an unexpected model call fails the test. When a reply (queued
 * or from the fallback) reports no token usage, usage is estimated as a quarter of the characters of the
 * prompt and of the reply, so that token metrics are not zero in tests; a reply without a model name
 * gets {@link #modelName(String)}. Faults answer as described on {@link Fault}. Thread-safe.
 */
public final class ScriptedLlm implements LlmClient {

    /** Faults that {@link #enqueueFault} injects in place of a reply. */
    public enum Fault {
        /** Throws {@link LlmException} of kind {@link LlmException.Kind#TIMEOUT}. */
        TIMEOUT,
        /** Throws an {@link IllegalStateException}, as a buggy client would. */
        EXCEPTION,
        /** Answers with one empty text. */
        EMPTY_REPLY,
        /** Answers with a JSON object cut off in the middle. */
        MALFORMED_JSON,
        /** Returns {@code null}, breaking the SPI contract. */
        NULL_RESPONSE
    }

    /** The text {@link Fault#MALFORMED_JSON} answers: a JSON object cut off in the middle. */
    public static final String MALFORMED_JSON_TEXT = "{\"sql\": \"SELECT name FROM";

    private static final String ANY_ROLE = "\u0000any";

    private final Map<String, Deque<Object>> queues = new HashMap<>();
    private final List<LlmRequest> requests = new ArrayList<>();
    private Function<LlmRequest, LlmResponse> fallback;
    private String modelName = "scripted";

    private ScriptedLlm() {
    }

    /** {@return an empty scripted model} */
    public static ScriptedLlm create() {
        return new ScriptedLlm();
    }

    /**
     * Queues a reply for any role.
     *
     * @param texts the choices of one response (usually one)
     * @return this
     */
    public synchronized ScriptedLlm enqueue(String... texts) {
        return enqueueTo(ANY_ROLE, responseOf(texts));
    }

    /**
     * Queues a reply for one role.
     *
     * @param role the role it answers, e.g. {@code "refiner"}
     * @param texts the choices of one response (usually one)
     * @return this
     */
    public synchronized ScriptedLlm enqueueFor(String role, String... texts) {
        return enqueueTo(requireRole(role), responseOf(texts));
    }

    /**
     * Queues a reply for one role, named by its constant.
     *
     * @param role the role it answers, e.g. {@code AgentRole.REFINER}
     * @param texts the choices of one response (usually one)
     * @return this
     */
    public synchronized ScriptedLlm enqueueFor(ModelRole role, String... texts) {
        return enqueueFor(roleId(role), texts);
    }

    /**
     * Queues a whole response for one role.
     *
     * @param role the role it answers
     * @param response the response to return
     * @return this
     */
    public synchronized ScriptedLlm enqueueResponse(String role, LlmResponse response) {
        return enqueueTo(requireRole(role), Objects.requireNonNull(response, "response"));
    }

    /**
     * Queues a whole response for one role, named by its constant.
     *
     * @param role the role it answers, e.g. {@code AgentRole.JUDGE}
     * @param response the response to return
     * @return this
     */
    public synchronized ScriptedLlm enqueueResponse(ModelRole role, LlmResponse response) {
        return enqueueResponse(roleId(role), response);
    }

    /**
     * Queues a fault for one role, in place of its next reply.
     *
     * @param role the role it hits
     * @param fault what goes wrong
     * @return this
     */
    public synchronized ScriptedLlm enqueueFault(String role, Fault fault) {
        return enqueueTo(requireRole(role), Objects.requireNonNull(fault, "fault"));
    }

    /**
     * Queues a fault for one role, named by its constant, in place of its next reply.
     *
     * @param role the role it hits, e.g. {@code AgentRole.REFINER}
     * @param fault what goes wrong
     * @return this
     */
    public synchronized ScriptedLlm enqueueFault(ModelRole role, Fault fault) {
        return enqueueFault(roleId(role), fault);
    }

    /**
     * Queues a fault in the shared queue, hitting the next request of any role that has nothing queued
     * of its own.
     *
     * @param fault what goes wrong
     * @return this
     */
    public synchronized ScriptedLlm enqueueFault(Fault fault) {
        return enqueueTo(ANY_ROLE, Objects.requireNonNull(fault, "fault"));
    }

    /**
     * Sets what answers when no queued reply is left (for example a function of the question).
     *
     * @param fallback the answer to any request the queues cannot serve
     * @return this
     */
    public synchronized ScriptedLlm fallback(Function<LlmRequest, LlmResponse> fallback) {
        this.fallback = Objects.requireNonNull(fallback, "fallback");
        return this;
    }

    /**
     * Sets the model name reported in responses that carry none of their own.
     *
     * @param modelName the model name reported in responses
     * @return this
     */
    public synchronized ScriptedLlm modelName(String modelName) {
        this.modelName = Objects.requireNonNull(modelName, "modelName");
        return this;
    }

    /**
     * Answers from the role's queue, then the shared queue, then the fallback.
     *
     * @param request the request, recorded before it is answered
     * @return the scripted response with usage estimated when it reports none; {@code null} only for
     *     {@link Fault#NULL_RESPONSE} or a fallback that returns null
     * @throws LlmException of kind {@code OTHER} when nothing answers, of kind {@code TIMEOUT} for
     *     {@link Fault#TIMEOUT}
     * @throws IllegalStateException for {@link Fault#EXCEPTION}
     */
    @Override
    public LlmResponse chat(LlmRequest request) {
        Objects.requireNonNull(request, "request");
        Object next;
        Function<LlmRequest, LlmResponse> fb;
        String model;
        synchronized (this) {
            requests.add(request);
            next = poll(request.role());
            if (next == null) {
                next = poll(ANY_ROLE);
            }
            fb = fallback;
            model = modelName;
        }
        if (next == null) {
            if (fb != null) {
                LlmResponse answer = fb.apply(request);
                return answer == null ? null : withUsageAndModel(answer, request, model);
            }
            throw new LlmException(LlmException.Kind.OTHER,
                    "ScriptedLlm has no reply queued for role '" + request.role() + "'");
        }
        if (next instanceof Fault) {
            return fail((Fault) next, request, model);
        }
        return withUsageAndModel((LlmResponse) next, request, model);
    }

    private static LlmResponse withUsageAndModel(LlmResponse scripted, LlmRequest request, String model) {
        TokenUsage usage = scripted.usage();
        if (usage.totalTokens() == 0) {
            long out = 0;
            for (String t : scripted.texts()) {
                out += estimateTokens(t);
            }
            usage = new TokenUsage(estimateTokens(request.text()), out);
        }
        return new LlmResponse(scripted.texts(), usage, scripted.model().isEmpty() ? model : scripted.model());
    }

    private static LlmResponse fail(Fault fault, LlmRequest request, String model) {
        switch (fault) {
            case TIMEOUT:
                throw new LlmException(LlmException.Kind.TIMEOUT,
                        "scripted timeout for role '" + request.role() + "'");
            case EXCEPTION:
                throw new IllegalStateException("scripted failure for role '" + request.role() + "'");
            case EMPTY_REPLY:
                return new LlmResponse(List.of(""), TokenUsage.NONE, model);
            case MALFORMED_JSON:
                return new LlmResponse(List.of(MALFORMED_JSON_TEXT), TokenUsage.NONE, model);
            case NULL_RESPONSE:
                return null;
            default:
                throw new AssertionError(fault);
        }
    }

    /** {@return every request received so far, in order} */
    public synchronized List<LlmRequest> requests() {
        return List.copyOf(requests);
    }

    /**
     * Returns the requests received so far whose {@linkplain LlmRequest#role() role} is {@code role}.
     *
     * @param role a role, such as {@code "refiner"}
     * @return the requests of that role, in order; a copy, empty if there were none
     */
    public synchronized List<LlmRequest> requests(String role) {
        List<LlmRequest> out = new ArrayList<>();
        for (LlmRequest r : requests) {
            if (r.role().equals(role)) {
                out.add(r);
            }
        }
        return out;
    }

    /**
     * The requests of one role, named by its constant.
     *
     * @param role a role, e.g. {@code AgentRole.REFINER}
     * @return the requests of that role, in order
     */
    public synchronized List<LlmRequest> requests(ModelRole role) {
        return requests(roleId(role));
    }

    /**
     * The role id the agent puts in its requests for a role: {@link ModelRole#id()}
     * ({@code AgentRole.REFINER} is {@code "refiner"}).
     *
     * @param role a role
     * @return its id
     * @throws NullPointerException if {@code role} is null
     * @throws IllegalArgumentException if its id is blank
     */
    public static String roleId(ModelRole role) {
        Objects.requireNonNull(role, "role");
        return requireRole(role.id());
    }

    /** {@return how many requests were received} */
    public synchronized int callCount() {
        return requests.size();
    }

    /** {@return how many queued replies and faults are still unused, over all roles} */
    public synchronized int remaining() {
        int n = 0;
        for (Deque<Object> q : queues.values()) {
            n += q.size();
        }
        return n;
    }

    /** Forgets queued replies and faults, recorded requests and the fallback; keeps the model name. */
    public synchronized void reset() {
        queues.clear();
        requests.clear();
        fallback = null;
    }

    private ScriptedLlm enqueueTo(String role, Object item) {
        queues.computeIfAbsent(role, k -> new ArrayDeque<>()).addLast(item);
        return this;
    }

    private Object poll(String role) {
        Deque<Object> q = queues.get(role);
        return q == null ? null : q.pollFirst();
    }

    private static LlmResponse responseOf(String... texts) {
        Objects.requireNonNull(texts, "texts");
        if (texts.length == 0) {
            throw new IllegalArgumentException("a scripted reply needs at least one text");
        }
        for (String t : texts) {
            Objects.requireNonNull(t, "text");
        }
        return new LlmResponse(List.of(texts), TokenUsage.NONE, "");
    }

    private static String requireRole(String role) {
        Objects.requireNonNull(role, "role");
        if (role.isBlank()) {
            throw new IllegalArgumentException("role must not be blank");
        }
        return role;
    }

    private static long estimateTokens(String text) {
        return (text.length() + 3L) / 4;
    }
}
