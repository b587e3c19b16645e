package io.orderflow.sandbox;

import java.util.List;
import java.util.Map;

/** What the sandbox did for one order: one entry per effect, and how many calls of each kind arrived. */
public record SandboxLedger(List<Map<String, Object>> charges, List<Map<String, Object>> refunds,
        List<Map<String, Object>> shipments, Map<String, Long> requests) {
}
