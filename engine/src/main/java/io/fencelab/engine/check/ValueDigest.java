package io.fencelab.engine.check;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The short fingerprint that identifies a written value in events and final states without
 * revealing it: the first 16 hex characters of the SHA-256 of the value's bytes (UTF-8 for text).
 * Writers and the final-state loader must use this one function, or equal values would not compare
 * equal.
 */
public final class ValueDigest {

    private static final int HEX_CHARS = 16;

    private ValueDigest() {
    }

    public static String of(String value) {
        return of(value.getBytes(StandardCharsets.UTF_8));
    }

    public static String of(byte[] value) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(value);
            return HexFormat.of().formatHex(hash, 0, HEX_CHARS / 2);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
