package io.orderflow.user;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

@ConfigMapping(prefix = "orders.users")
public interface UserConfig {

    /**
     * The bcrypt cost (log2 of its rounds) of the passwords of users the operator adds. HTTP Basic
     * checks the password on every request, so each step up doubles the CPU that every request of
     * such a user costs (see README for the figures).
     */
    @WithDefault("10")
    @Min(4)
    @Max(31)
    int bcryptCost();

    /** The shortest password the operator may give a new user, in characters. */
    @WithDefault("12")
    @Min(1)
    int minPasswordLength();
}
