package io.orderflow.user;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * A password for a command, read from stdin, never from the arguments, which any user of the machine can see in the
 * process list.
 */
final class StdinPassword {

    private StdinPassword() {
    }

    /** At a terminal the password is asked for without echo; piped in, it is the first line. Null when none comes. */
    static String read(InputStream in, String name) throws IOException {
        if (in == System.in && System.console() != null) {
            char[] typed = System.console().readPassword("Password for %s: ", name);
            return typed == null ? null : new String(typed);
        }
        return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)).readLine();
    }
}
