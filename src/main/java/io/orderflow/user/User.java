package io.orderflow.user;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import org.hibernate.annotations.Immutable;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import io.quarkus.security.jpa.Password;
import io.quarkus.security.jpa.PasswordType;
import io.quarkus.security.jpa.Roles;
import io.quarkus.security.jpa.UserDefinition;
import io.quarkus.security.jpa.Username;

/**
 * A user who may sign in, as quarkus-security-jpa reads it for HTTP Basic and the login form.
 * Read-only to Hibernate: users are added, disabled and given passwords by {@link UserAccounts}'s
 * statements (one INSERT refuses a name already taken). A disabled user stays, so that no one else
 * takes the name of their orders.
 */
@Entity
@Immutable
@Table(name = "users")
@UserDefinition
public class User extends PanacheEntityBase {

    @Id
    @Username
    @Column(length = 64)
    public String name;

    /** A bcrypt hash in Modular Crypt Format, which carries its own cost and salt. */
    @Password(PasswordType.MCF)
    @Column(length = 60)
    public String password;

    /** customer, staff, admin or metrics; an admin is staff as well (shared.security.AdminsAreStaff). */
    @Roles
    @Column(length = 16)
    public String role;

    @Column(name = "created_at")
    public Instant createdAt;

    /** When the user was disabled; null while the user may sign in. */
    @Column(name = "disabled_at")
    public Instant disabledAt;
}
