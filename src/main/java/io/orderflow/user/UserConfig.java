package io.orderflow.user;

import java.time.Duration;

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

    /**
     * How long a password verified for a user is taken as verified again without its bcrypt hash:
     * HTTP Basic sends it with every request. A password changed or a user disabled or removed in the database
     * stops working on an instance that verified it at most this long after; 0S checks every time.
     */
    @WithDefault("60S")
    Duration verifiedFor();

    /**
     * Whether a bearer token's subject may name a user who signs in with a password, and so act on that
     * user's orders. Off: such a token is refused (401), and an identity provider's subjects stay apart
     * from the users' names (user.TokenSubjectsApart). On in dev, test and the demo, whose own key signs
     * tokens for their seeded users (ops/sign-token.sh).
     */
    @WithDefault("false")
    boolean tokensMayNameUsers();
}
