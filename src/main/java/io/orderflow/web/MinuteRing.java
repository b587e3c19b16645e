package io.orderflow.web;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** The last samples of a figure, one a minute, at most as many as it holds: the oldest goes when a new one comes. Null is a minute without a figure. */
final class MinuteRing {

    private final Double[] samples;
    private int next;
    private int size;

    MinuteRing(int capacity) {
        this.samples = new Double[capacity];
    }

    synchronized void add(Double sample) {
        samples[next] = sample;
        next = (next + 1) % samples.length;
        size = Math.min(size + 1, samples.length);
    }

    /** The samples held, oldest first. */
    synchronized List<Double> samples() {
        List<Double> held = new ArrayList<>(size);
        for (int i = size; i > 0; i--) {
            held.add(samples[(next - i + samples.length) % samples.length]);
        }
        return Collections.unmodifiableList(held);
    }
}
