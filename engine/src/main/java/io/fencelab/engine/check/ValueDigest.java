package io.fencelab.engine.check;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Identifies a written value without revealing it: the first 16 hex digits of its SHA-256. */
public final class ValueDigest {
    private ValueDigest() {
    }

    public static String of(String value) {
        return of(value.getBytes(StandardCharsets.UTF_8));
    }

    public static String of(byte[] value) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(value);
            return HexFormat.of().formatHex(hash, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
