package dev.sqlagent.spring;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.Version;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import dev.sqlagent.AgentResult;
import dev.sqlagent.HandOff;
import dev.sqlagent.guard.engine.PrivilegeReport;
import dev.sqlagent.trace.Trace;
import java.io.IOException;
import java.util.function.Function;

/**
 * A Jackson module writing the library's results in their own stable JSON forms, so that a controller can
 * return them: {@link AgentResult} as {@link AgentResult#toJson()}, {@link HandOff} as
 * {@link HandOff#toJson()}, {@link Trace} as {@link Trace#toJson()} and {@link PrivilegeReport} as
 * {@link PrivilegeReport#toJson()}. The starter registers it as a bean when jackson-databind is on the
 * class path, and Spring Boot adds every module bean to the application's {@code ObjectMapper}; elsewhere,
 * {@code objectMapper.registerModule(new SqlAgentJacksonModule())}. Writing only: the forms are not read
 * back.
 *
 * <pre>{@code
 * @PostMapping("/ask")
 * AgentResult ask(@RequestBody String question) {
 *     return agent.ask(question);
 * }
 * }</pre>
 */
public final class SqlAgentJacksonModule extends SimpleModule {

    private static final long serialVersionUID = 1L;

    /** Creates the module with its four serializers. */
    public SqlAgentJacksonModule() {
        super("sqlagent", Version.unknownVersion());
        addSerializer(new AsJson<>(AgentResult.class, AgentResult::toJson));
        addSerializer(new AsJson<>(HandOff.class, HandOff::toJson));
        addSerializer(new AsJson<>(Trace.class, Trace::toJson));
        addSerializer(new AsJson<>(PrivilegeReport.class, PrivilegeReport::toJson));
    }

    /** Writes a value as the JSON its own method renders. */
    private static final class AsJson<T> extends StdSerializer<T> {

        private static final long serialVersionUID = 1L;

        private final transient Function<T, String> json;

        AsJson(Class<T> type, Function<T, String> json) {
            super(type);
            this.json = json;
        }

        @Override
        public void serialize(T value, JsonGenerator gen, SerializerProvider provider) throws IOException {
            gen.writeRawValue(json.apply(value));
        }
    }
}
