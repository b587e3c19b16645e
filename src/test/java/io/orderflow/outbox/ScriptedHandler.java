package io.orderflow.outbox;

import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;

/** Delivers outbox messages of the kind {@value #KIND} as a test scripts them, recording every attempt. */
@ApplicationScoped
public class ScriptedHandler implements OutboxHandler {

    static final String KIND = "scripted";

    private final Map<String, Queue<Runnable>> scripts = new ConcurrentHashMap<>();
    private final List<String> attempts = new CopyOnWriteArrayList<>();

    /** What the next attempts at the message with this key do, one each; attempts beyond them succeed. */
    void script(String key, Runnable... behaviours) {
        scripts.computeIfAbsent(key, k -> new ConcurrentLinkedQueue<>()).addAll(List.of(behaviours));
    }

    long attempts(String key) {
        return attempts.stream().filter(key::equals).count();
    }

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public void deliver(OutboxMessage message) {
        attempts.add(message.idempotencyKey);
        Queue<Runnable> script = scripts.get(message.idempotencyKey);
        Runnable next = script == null ? null : script.poll();
        if (next != null) {
            next.run();
        }
    }
}
