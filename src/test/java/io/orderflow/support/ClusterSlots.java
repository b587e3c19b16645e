package io.orderflow.support;

import java.nio.charset.StandardCharsets;

/**
 * The hash slot Redis Cluster keeps a key in, computed as Redis's keyHashSlot does: CRC16 (XMODEM) of
 * the key, or of its hash tag, modulo 16384. The hash tag is what stands between the first '{' and the
 * first '}' after it, when that is not empty. Tests use it to know, without asking a node, which node a
 * key lives on, and whether keys that one script touches share a slot.
 */
public final class ClusterSlots {

    /** How many slots a cluster has. */
    public static final int SLOTS = 16384;

    private ClusterSlots() {
    }

    public static int slot(String key) {
        return slot(key.getBytes(StandardCharsets.UTF_8));
    }

    public static int slot(byte[] key) {
        int open = indexOf(key, '{', 0);
        if (open >= 0) {
            int close = indexOf(key, '}', open + 1);
            if (close > open + 1) {
                return crc16(key, open + 1, close) & (SLOTS - 1);
            }
        }
        return crc16(key, 0, key.length) & (SLOTS - 1);
    }

    /** CRC16-CCITT as XMODEM has it: polynomial 0x1021, initial value 0, no reflection. */
    static int crc16(byte[] bytes, int from, int to) {
        int crc = 0;
        for (int i = from; i < to; i++) {
            crc ^= (bytes[i] & 0xFF) << 8;
            for (int bit = 0; bit < 8; bit++) {
                crc = (crc & 0x8000) != 0 ? (crc << 1) ^ 0x1021 : crc << 1;
            }
            crc &= 0xFFFF;
        }
        return crc;
    }

    private static int indexOf(byte[] bytes, char wanted, int from) {
        for (int i = from; i < bytes.length; i++) {
            if (bytes[i] == wanted) {
                return i;
            }
        }
        return -1;
    }
}
