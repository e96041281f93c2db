/**
 * A Micrometer {@code MeterBinder} that publishes an agent's measures
 * ({@link dev.sqlagent.micrometer.SqlAgentMeterBinder}).
 */
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module dev.sqlagent.micrometer {
    requires transitive dev.sqlagent.core;
    // MeterBinder and MeterRegistry are in this module's API. Micrometer names its automatic module in
    // its manifest (Automatic-Module-Name: micrometer.core), so the name is stable.
    requires transitive micrometer.core;

    exports dev.sqlagent.micrometer;
}
