package dev.sqlagent.llm.openai;

import dev.sqlagent.llm.LlmClient;
import dev.sqlagent.llm.LlmException;
import dev.sqlagent.llm.LlmRequest;
import dev.sqlagent.llm.LlmResponse;
import dev.sqlagent.llm.TokenUsage;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;
import java.util.function.Function;

/**
 * An {@link LlmClient} for any endpoint that speaks OpenAI's chat-completions protocol: OpenAI itself,
 * Azure-style gateways, vLLM, llama.cpp, Ollama, LM Studio and the like.
 *
 * <p>It sends {@code POST {baseUrl}/chat/completions} with the messages, temperature, {@code n},
 * {@code max_tokens} (left out when 0) and, when JSON is wanted, {@code response_format:
 * {"type":"json_object"}}. Texts are returned exactly as the model wrote them; cleaning them into SQL is
 * someone else's job. Some servers ignore {@code n}: when fewer choices come back than were asked for,
 * the client asks again, one call after another, until it has {@code n}, and adds up the token usage.
 *
 * <p>HTTP 408, 429, 5xx, time-outs and I/O errors are retried up to {@link Builder#maxRetries} times
 * with exponential back-off and jitter; a {@code Retry-After} (or {@code retry-after-ms}) header is
 * honoured, and one asking for longer than {@link Builder#maxBackoff} ends the retries at once. Every
 * failure is an {@link LlmException} whose {@link LlmException#kind() kind} says why and whose message
 * holds the HTTP status and the provider's own (shortened) words. The API key is sent as a bearer token
 * and appears in no message, log line or {@link #toString()}.
 *
 * <p>Immutable and thread-safe.
 *
 * <pre>{@code
 * LlmClient llm = OpenAiCompatibleClient.builder()
 *     .baseUrl("http://127.0.0.1:8000/v1")
 *     .model("qwen2.5-coder-7b-instruct")
 *     .build();
 * }</pre>
 */
public final class OpenAiCompatibleClient implements LlmClient {

    /** OpenAI's own endpoint, used by {@link #fromEnvironment()} when an API key but no base URL is set. */
    public static final String OPENAI_BASE_URL = "https://api.openai.com/v1";
    /** Default time allowed for one HTTP call (and for connecting). */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);
    /** Default number of retries after the first attempt. */
    public static final int DEFAULT_MAX_RETRIES = 2;
    /** Default base delay of the first retry. */
    public static final Duration DEFAULT_INITIAL_BACKOFF = Duration.ofMillis(500);
    /** Default cap of a back-off delay and of an honoured {@code Retry-After}. */
    public static final Duration DEFAULT_MAX_BACKOFF = Duration.ofSeconds(30);
    /** Highest accepted {@link Builder#maxRetries}. */
    public static final int MAX_RETRIES_LIMIT = 10;

    private static final System.Logger LOG = System.getLogger(OpenAiCompatibleClient.class.getName());

    /** Waits between attempts. Tests inject one that records the delay instead of waiting. */
    @FunctionalInterface
    public interface Sleeper {

        /**
         * Waits.
         *
         * @param duration how long, never negative
         * @throws InterruptedException if the waiting thread is interrupted
         */
        void sleep(Duration duration) throws InterruptedException;

        /** {@return a sleeper that blocks the calling thread with {@link Thread#sleep(long, int)}} */
        static Sleeper system() {
            return d -> {
                long nanos = d.toNanos();
                Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
            };
        }
    }

    private final String baseUrl;
    private final URI endpoint;
    private final String apiKey;
    private final String model;
    private final Duration timeout;
    private final int maxRetries;
    private final Duration initialBackoff;
    private final Duration maxBackoff;
    private final Sleeper sleeper;
    private final Clock clock;
    private final DoubleSupplier jitter;
    private final HttpClient httpClient;
    private final boolean ownHttpClient;
    private final Map<String, String> headers;
    private final Backoff backoff;

    private OpenAiCompatibleClient(Builder b, HttpClient httpClient) {
        this.baseUrl = b.baseUrl;
        this.endpoint = URI.create(b.baseUrl + "/chat/completions");
        this.apiKey = b.apiKey;
        this.model = b.model;
        this.timeout = b.timeout;
        this.maxRetries = b.maxRetries;
        this.initialBackoff = b.initialBackoff;
        this.maxBackoff = b.maxBackoff;
        this.sleeper = b.sleeper;
        this.clock = b.clock;
        this.jitter = b.jitter;
        this.httpClient = httpClient;
        this.ownHttpClient = b.httpClient == null;
        this.headers = Collections.unmodifiableMap(new LinkedHashMap<>(b.headers));
        this.backoff = new Backoff(initialBackoff, maxBackoff, jitter);
    }

    /** {@return a new builder; {@code baseUrl} and {@code model} must be set before {@code build()}} */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Builds a client from environment variables: {@code SQLAGENT_LLM_BASE_URL},
     * {@code SQLAGENT_LLM_API_KEY} and {@code SQLAGENT_LLM_MODEL}, each falling back to
     * {@code OPENAI_BASE_URL}, {@code OPENAI_API_KEY} and {@code OPENAI_MODEL}. Blank values count as
     * unset. The key is optional (local servers need none); without a base URL, {@link #OPENAI_BASE_URL}
     * is used when a key is set.
     *
     * @return a client with the other settings at their defaults
     * @throws IllegalStateException naming the missing variable when the model, or both the base URL and
     *     the key, are missing
     * @throws IllegalArgumentException when a variable holds a bad value (naming the variable)
     */
    public static OpenAiCompatibleClient fromEnvironment() {
        return fromEnvironment(System::getenv);
    }

    /** {@link #fromEnvironment()} reading from {@code env}; visible for tests. */
    static OpenAiCompatibleClient fromEnvironment(Function<String, String> env) {
        String[] url = firstSet(env, "SQLAGENT_LLM_BASE_URL", "OPENAI_BASE_URL");
        String[] key = firstSet(env, "SQLAGENT_LLM_API_KEY", "OPENAI_API_KEY");
        String[] model = firstSet(env, "SQLAGENT_LLM_MODEL", "OPENAI_MODEL");
        if (model == null) {
            throw new IllegalStateException("environment variable SQLAGENT_LLM_MODEL (or OPENAI_MODEL) is not set:"
                    + " it names the model to call, e.g. gpt-4o-mini");
        }
        if (url == null && key == null) {
            throw new IllegalStateException("environment variable SQLAGENT_LLM_BASE_URL (or OPENAI_BASE_URL) is"
                    + " not set: it is the endpoint's base URL, e.g. http://127.0.0.1:8000/v1 (set"
                    + " SQLAGENT_LLM_API_KEY instead to use " + OPENAI_BASE_URL + ")");
        }
        Builder b = builder();
        try {
            b.baseUrl(url == null ? OPENAI_BASE_URL : url[1]);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("environment variable " + url[0] + ": " + e.getMessage(), e);
        }
        try {
            b.model(model[1]);
            if (key != null) {
                b.apiKey(key[1]);
            }
        } catch (IllegalArgumentException e) {
            String name = key != null && e.getMessage().startsWith("apiKey") ? key[0] : model[0];
            throw new IllegalArgumentException("environment variable " + name + ": " + e.getMessage(), e);
        }
        return b.build();
    }

    private static String[] firstSet(Function<String, String> env, String... names) {
        for (String name : names) {
            String v = env.apply(name);
            if (v != null && !v.isBlank()) {
                return new String[] {name, v.strip()};
            }
        }
        return null;
    }

    /** {@return a builder holding this client's settings (and its HTTP client, if one was given)} */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.baseUrl = baseUrl;
        b.apiKey = apiKey;
        b.model = model;
        b.timeout = timeout;
        b.maxRetries = maxRetries;
        b.initialBackoff = initialBackoff;
        b.maxBackoff = maxBackoff;
        b.sleeper = sleeper;
        b.clock = clock;
        b.jitter = jitter;
        b.httpClient = ownHttpClient ? null : httpClient;
        b.headers.putAll(headers);
        return b;
    }

    /** {@return the URL requests are posted to} */
    public URI endpoint() {
        return endpoint;
    }

    /** {@return the model asked for} */
    public String model() {
        return model;
    }

    /**
     * Sends the request, asking again while fewer than {@code request.n()} choices came back.
     *
     * @param request the request, never null
     * @return exactly {@code request.n()} texts (a null message content becomes an empty text), the
     *     summed usage and the model the provider reported first
     * @throws LlmException AUTHENTICATION (401, 403), BAD_REQUEST (400, 404, 405, 409, 413, 415, 422),
     *     RATE_LIMITED (429), SERVER_ERROR (5xx), TIMEOUT (time-out or 408), TRANSPORT (connection
     *     refused, reset or closed), MALFORMED_RESPONSE (a body that is not a chat completion, or no
     *     choice), OTHER (any other status, or an interrupted thread, whose flag is restored)
     */
    @Override
    public LlmResponse chat(LlmRequest request) {
        Objects.requireNonNull(request, "request");
        List<String> texts = new ArrayList<>(request.n());
        TokenUsage usage = TokenUsage.NONE;
        String reportedModel = "";
        while (texts.size() < request.n()) {
            int missing = request.n() - texts.size();
            ChatJson.Completion c = call(request, missing);
            for (String t : c.texts()) {
                if (texts.size() < request.n()) {
                    texts.add(t);
                }
            }
            usage = usage.plus(c.usage());
            if (reportedModel.isEmpty()) {
                reportedModel = c.model();
            }
            if (texts.size() < request.n()) {
                LOG.log(System.Logger.Level.DEBUG, "{0} returned {1} of {2} choices; asking for the rest",
                        safeEndpoint(), c.texts().size(), missing);
            }
        }
        return new LlmResponse(texts, usage, reportedModel);
    }

    /** One logical call (with its retries) asking for {@code n} choices; never returns zero choices. */
    private ChatJson.Completion call(LlmRequest request, int n) {
        HttpRequest.Builder hb = HttpRequest.newBuilder(endpoint)
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json");
        if (apiKey != null) {
            hb.header("Authorization", "Bearer " + apiKey);
        }
        headers.forEach(hb::setHeader);
        HttpRequest http = hb.POST(HttpRequest.BodyPublishers.ofByteArray(ChatJson.writeRequest(model, request, n)))
                .build();
        for (int attempt = 1; ; attempt++) {
            LlmException failure;
            Optional<Duration> asked = Optional.empty();
            try {
                HttpResponse<byte[]> response = httpClient.send(http, HttpResponse.BodyHandlers.ofByteArray());
                int status = response.statusCode();
                byte[] body = response.body() == null ? new byte[0] : response.body();
                if (status >= 200 && status < 300) {
                    try {
                        return ChatJson.readResponse(body);
                    } catch (LlmException e) {
                        throw new LlmException(e.kind(), redact("HTTP " + status + " from " + safeEndpoint()
                                + ": " + e.getMessage()), e.getCause());
                    }
                }
                failure = new LlmException(kindOf(status), redact("HTTP " + status + " from " + safeEndpoint()
                        + describe(ChatJson.errorMessage(body))));
                if (!retryable(status)) {
                    throw failure;
                }
                asked = Backoff.retryAfter(response.headers(), clock);
            } catch (HttpTimeoutException e) {
                failure = new LlmException(LlmException.Kind.TIMEOUT, redact("no answer from " + safeEndpoint()
                        + " within " + timeout.toMillis() + " ms (" + e.getClass().getSimpleName() + ")"), e);
            } catch (IOException e) {
                failure = new LlmException(LlmException.Kind.TRANSPORT, redact("cannot talk to " + safeEndpoint()
                        + ": " + e.getClass().getSimpleName()
                        + (e.getMessage() == null ? "" : " " + ChatJson.shorten(e.getMessage()))), e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new LlmException(LlmException.Kind.OTHER, "interrupted while calling " + safeEndpoint(), e);
            }
            if (attempt > maxRetries) {
                if (maxRetries == 0) {
                    throw failure;
                }
                throw new LlmException(failure.kind(), failure.getMessage() + " (after " + attempt + " attempts)",
                        failure.getCause());
            }
            Duration wait;
            if (asked.isPresent()) {
                wait = asked.get();
                if (wait.compareTo(maxBackoff) > 0) {
                    throw new LlmException(failure.kind(), failure.getMessage() + " (the server asks to retry after "
                            + wait.toMillis() + " ms, more than maxBackoff " + maxBackoff.toMillis() + " ms)",
                            failure.getCause());
                }
            } else {
                wait = backoff.delay(attempt);
            }
            LOG.log(System.Logger.Level.DEBUG, "{0}; retry {1} of {2} in {3} ms", failure.getMessage(), attempt,
                    maxRetries, wait.toMillis());
            try {
                sleeper.sleep(wait);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new LlmException(LlmException.Kind.OTHER, "interrupted while waiting to retry "
                        + safeEndpoint() + " after: " + failure.getMessage(), e);
            }
        }
    }

    private static String describe(String providerMessage) {
        return providerMessage.isEmpty() ? "" : ": " + providerMessage;
    }

    static LlmException.Kind kindOf(int status) {
        return LlmException.Kind.ofHttpStatus(status);
    }

    private static boolean retryable(int status) {
        return status == 408 || status == 429 || (status >= 500 && status < 600);
    }

    /** The endpoint without user info, query or fragment, which may carry credentials. */
    private String safeEndpoint() {
        StringBuilder sb = new StringBuilder().append(endpoint.getScheme()).append("://").append(endpoint.getHost());
        if (endpoint.getPort() >= 0) {
            sb.append(':').append(endpoint.getPort());
        }
        return sb.append(endpoint.getRawPath()).toString();
    }

    /** Removes the API key (and header values, which may be keys too) from a message. */
    private String redact(String message) {
        String m = message;
        if (apiKey != null) {
            m = m.replace(apiKey, "***");
        }
        for (String v : headers.values()) {
            if (v.length() >= 8) {
                m = m.replace(v, "***");
            }
        }
        return m;
    }

    /** Shows the settings; never the API key or header values. */
    @Override
    public String toString() {
        return "OpenAiCompatibleClient{endpoint=" + safeEndpoint() + ", model=" + model + ", apiKey="
                + (apiKey == null ? "none" : "***") + ", headers=" + headers.keySet() + ", timeout=" + timeout
                + ", maxRetries=" + maxRetries + '}';
    }

    /**
     * Builds an {@link OpenAiCompatibleClient}. Setters check their argument and name it when it is bad;
     * {@link #build()} checks the rules between fields.
     */
    public static final class Builder {
        private String baseUrl;
        private String apiKey;
        private String model;
        private Duration timeout = DEFAULT_TIMEOUT;
        private int maxRetries = DEFAULT_MAX_RETRIES;
        private Duration initialBackoff = DEFAULT_INITIAL_BACKOFF;
        private Duration maxBackoff = DEFAULT_MAX_BACKOFF;
        private Sleeper sleeper = Sleeper.system();
        private Clock clock = Clock.systemUTC();
        private DoubleSupplier jitter = () -> ThreadLocalRandom.current().nextDouble();
        private HttpClient httpClient;
        private final Map<String, String> headers = new LinkedHashMap<>();

        private Builder() {
        }

        /**
         * Sets the endpoint's base URL; required.
         *
         * @param baseUrl an absolute http(s) URL such as {@code https://api.openai.com/v1}; requests go to
         *     {@code baseUrl + "/chat/completions"} (a trailing slash is ignored)
         * @return this
         * @throws IllegalArgumentException if it is not an absolute http or https URL
         */
        public Builder baseUrl(String baseUrl) {
            Objects.requireNonNull(baseUrl, "baseUrl");
            String u = baseUrl.strip();
            while (u.endsWith("/")) {
                u = u.substring(0, u.length() - 1);
            }
            URI uri;
            try {
                uri = new URI(u);
            } catch (URISyntaxException e) {
                throw new IllegalArgumentException("baseUrl is not a URL: " + e.getReason(), e);
            }
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
                // the value itself is not shown: a misplaced key must not end up in a log
                throw new IllegalArgumentException("baseUrl must be an absolute http or https URL with a host but its"
                        + " scheme was '" + ChatJson.shorten(scheme) + "'" + (uri.getHost() == null ? " and it has no host" : ""));
            }
            if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
                throw new IllegalArgumentException("baseUrl must have no query or fragment (use header() for keys)");
            }
            this.baseUrl = u;
            return this;
        }

        /**
         * Sets the API key; by default none, as local servers need.
         *
         * @param apiKey sent as {@code Authorization: Bearer …}; null or blank for none (local servers)
         * @return this
         * @throws IllegalArgumentException if it holds whitespace or control characters
         */
        public Builder apiKey(String apiKey) {
            if (apiKey == null || apiKey.isBlank()) {
                this.apiKey = null;
                return this;
            }
            String k = apiKey.strip();
            for (int i = 0; i < k.length(); i++) {
                char c = k.charAt(i);
                if (Character.isWhitespace(c) || Character.isISOControl(c)) {
                    throw new IllegalArgumentException("apiKey must not contain whitespace or control characters");
                }
            }
            this.apiKey = k;
            return this;
        }

        /**
         * Sets the model name sent in every request; required.
         *
         * @param model the model name, not blank; surrounding white space is removed
         * @return this builder
         * @throws NullPointerException if {@code model} is null
         * @throws IllegalArgumentException if {@code model} is blank
         */
        public Builder model(String model) {
            Objects.requireNonNull(model, "model");
            if (model.isBlank()) {
                throw new IllegalArgumentException("model must not be blank");
            }
            this.model = model.strip();
            return this;
        }

        /**
         * Sets the time allowed for one HTTP call; defaults to
         * {@link OpenAiCompatibleClient#DEFAULT_TIMEOUT}.
         *
         * @param timeout the time allowed for one HTTP call, and for connecting when the client creates
         *     its own {@link HttpClient}; positive
         * @return this
         */
        public Builder timeout(Duration timeout) {
            Objects.requireNonNull(timeout, "timeout");
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("timeout must be > 0 but was " + timeout);
            }
            this.timeout = timeout;
            return this;
        }

        /**
         * Sets how often a transport fault is retried; defaults to
         * {@value OpenAiCompatibleClient#DEFAULT_MAX_RETRIES}.
         *
         * @param maxRetries retries after the first attempt for 408, 429, 5xx, time-outs and I/O errors,
         *     0 to {@value OpenAiCompatibleClient#MAX_RETRIES_LIMIT}
         * @return this
         */
        public Builder maxRetries(int maxRetries) {
            if (maxRetries < 0 || maxRetries > MAX_RETRIES_LIMIT) {
                throw new IllegalArgumentException("maxRetries must be in [0, " + MAX_RETRIES_LIMIT + "] but was "
                        + maxRetries);
            }
            this.maxRetries = maxRetries;
            return this;
        }

        /**
         * Sets the base delay of the first retry; it doubles for each further retry up to
         * {@link #maxBackoff}, and a random part of up to half of it is taken away so that clients failing
         * together do not retry together. Defaults to {@link OpenAiCompatibleClient#DEFAULT_INITIAL_BACKOFF}.
         *
         * @param initialBackoff base delay of the first retry, not negative
         * @return this builder
         * @throws NullPointerException if {@code initialBackoff} is null
         * @throws IllegalArgumentException if {@code initialBackoff} is negative
         */
        public Builder initialBackoff(Duration initialBackoff) {
            Objects.requireNonNull(initialBackoff, "initialBackoff");
            if (initialBackoff.isNegative()) {
                throw new IllegalArgumentException("initialBackoff must be >= 0 but was " + initialBackoff);
            }
            this.initialBackoff = initialBackoff;
            return this;
        }

        /**
         * Caps the back-off delay; defaults to {@link OpenAiCompatibleClient#DEFAULT_MAX_BACKOFF}.
         *
         * @param maxBackoff cap of a computed delay; a {@code Retry-After} asking for longer ends the
         *     retries; not negative and not below {@code initialBackoff} (checked by {@link #build()})
         * @return this
         */
        public Builder maxBackoff(Duration maxBackoff) {
            Objects.requireNonNull(maxBackoff, "maxBackoff");
            if (maxBackoff.isNegative()) {
                throw new IllegalArgumentException("maxBackoff must be >= 0 but was " + maxBackoff);
            }
            this.maxBackoff = maxBackoff;
            return this;
        }

        /**
         * Sets how the client waits between attempts; by default it sleeps on the calling thread. Tests
         * pass one that records the delay instead of waiting.
         *
         * @param sleeper how to wait between attempts, not null
         * @return this builder
         * @throws NullPointerException if {@code sleeper} is null
         */
        public Builder sleeper(Sleeper sleeper) {
            this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
            return this;
        }

        /**
         * Sets the clock an HTTP-date {@code Retry-After} is measured against; defaults to the system
         * clock in UTC.
         *
         * @param clock the clock, not null
         * @return this builder
         * @throws NullPointerException if {@code clock} is null
         */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** @param jitter numbers in [0, 1) that spread back-off delays; visible for tests  @return this */
        Builder jitter(DoubleSupplier jitter) {
            this.jitter = Objects.requireNonNull(jitter, "jitter");
            return this;
        }

        /**
         * Sets the HTTP client that sends the requests.
         *
         * @param httpClient the HTTP client to use (proxy, TLS, executor); by default the client makes its
         *     own, HTTP/1.1 (which local servers understand best), with {@code timeout} to connect
         * @return this
         */
        public Builder httpClient(HttpClient httpClient) {
            this.httpClient = Objects.requireNonNull(httpClient, "httpClient");
            return this;
        }

        /**
         * Adds a header sent with every request, e.g. {@code api-key} for Azure or
         * {@code OpenAI-Organization}. Its value is treated as secret: never logged or shown.
         *
         * @param name the header name
         * @param value the value
         * @return this
         * @throws IllegalArgumentException if the JDK does not allow the header (e.g. {@code Host},
         *     {@code Content-Length}) or the name or value is malformed
         */
        public Builder header(String name, String value) {
            Objects.requireNonNull(name, "header name");
            Objects.requireNonNull(value, "header value");
            try {
                HttpRequest.newBuilder(URI.create("http://localhost/")).header(name, value);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("header '" + ChatJson.shorten(name) + "' is not allowed or"
                        + " malformed", e);
            }
            headers.put(name, value);
            return this;
        }

        /**
         * Builds the client from the values set so far.
         *
         * @return the client
         * @throws IllegalStateException if {@code baseUrl} or {@code model} is missing, {@code maxBackoff}
         *     is below {@code initialBackoff}, or an API key and an {@code Authorization} header are both set
         */
        public OpenAiCompatibleClient build() {
            if (baseUrl == null) {
                throw new IllegalStateException("baseUrl is required, e.g. " + OPENAI_BASE_URL);
            }
            if (model == null) {
                throw new IllegalStateException("model is required");
            }
            if (maxBackoff.compareTo(initialBackoff) < 0) {
                throw new IllegalStateException("maxBackoff (" + maxBackoff + ") must be >= initialBackoff ("
                        + initialBackoff + ")");
            }
            if (apiKey != null && headers.keySet().stream().anyMatch(h -> h.equalsIgnoreCase("Authorization"))) {
                throw new IllegalStateException("set either apiKey or an Authorization header, not both");
            }
            HttpClient http = httpClient != null ? httpClient : HttpClient.newBuilder()
                    .version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(timeout)
                    .build();
            return new OpenAiCompatibleClient(this, http);
        }
    }
}
