-- Who may sign in: the API with HTTP Basic, the web pages with the login form. quarkus-security-jpa
-- reads this table through io.orderflow.user.User on every Basic request and every form sign-in.
-- Passwords are bcrypt hashes in Modular Crypt Format ($2a$<cost>$<salt and hash>, 60 characters),
-- so each row carries its own cost; the constraint keeps plain text out of the column.
CREATE TABLE users (
    name       VARCHAR(64) NOT NULL,
    password   VARCHAR(60) NOT NULL,
    role       VARCHAR(16) NOT NULL,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT pk_users PRIMARY KEY (name),
    -- A name owns orders and tokens and sits in their Redis hash tags ({p:<name>}): lower case, so no
    -- two users differ only by case, and no braces, spaces or other characters that need escaping.
    CONSTRAINT ck_users_name CHECK (name ~ '^[a-z0-9][a-z0-9._@-]{0,63}$'),
    CONSTRAINT ck_users_password CHECK (password ~ '^\$2[aby]\$[0-9]{2}\$[./A-Za-z0-9]{53}$'),
    CONSTRAINT ck_users_role CHECK (role IN ('customer', 'staff'))
);
