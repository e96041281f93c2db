package dev.sqlagent.llm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.llm.LlmException.Kind;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LlmExceptionTest {

    @ParameterizedTest
    @CsvSource({"401, AUTHENTICATION", "403, AUTHENTICATION", "408, TIMEOUT", "429, RATE_LIMITED",
        "500, SERVER_ERROR", "503, SERVER_ERROR", "599, SERVER_ERROR", "400, BAD_REQUEST", "404, BAD_REQUEST",
        "422, BAD_REQUEST", "413, BAD_REQUEST", "418, OTHER", "302, OTHER", "600, OTHER"})
    void httpStatusesMapToTheirKind(int status, Kind kind) {
        assertThat(Kind.ofHttpStatus(status)).isEqualTo(kind);
    }
}
