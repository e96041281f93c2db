package dev.sqlagent;

/** Whether an optional stage (selection, decomposition) runs. */
public enum StageMode {
    /** Runs when it pays: selection when the schema exceeds the refiner's budget, decomposition for complex questions. */
    AUTO,
    /** Always runs. */
    ALWAYS,
    /** Never runs. */
    NEVER
}
