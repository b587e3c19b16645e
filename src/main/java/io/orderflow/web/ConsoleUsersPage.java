package io.orderflow.web;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.RestForm;
import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;

import io.orderflow.shared.security.Caller;
import io.orderflow.user.UserAccounts;
import io.orderflow.user.UserConfig;
import io.orderflow.user.UserRuleBroken;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.security.annotation.FormAuthentication;

/**
 * The users, for admins: who may sign in, with which role, since when, and who is disabled; a form to add a user, one
 * to disable each (asked to confirm first: no page enables a user again) and one to give a user a new password. The
 * rules are those of the operator's commands ({@link UserAccounts}). Every change answers 303 with a notice, so
 * submitting a form twice does no more than once: a name is added once, a disabled user stays disabled. A password
 * is never shown back, not even in a form sent back with a mistake.
 */
@Path(ConsoleUsersPage.PATH)
@FormAuthentication
@RolesAllowed(Caller.ADMIN)
public class ConsoleUsersPage {

    static final String PATH = ConsoleOrderPage.CONSOLE + "/users";
    private static final Logger LOG = Logger.getLogger(ConsoleUsersPage.class);
    /** The value of the confirmation form's {@code confirmed} field. */
    private static final String CONFIRMED = "yes";

    /** What a change did, as its notice names it after the redirect ({@code ?notice=added&user=dana}). */
    enum Notice {
        ADDED("added"), TAKEN("taken"), DISABLED("disabled"), ALREADY_DISABLED("alreadyDisabled"), NOT_YOURSELF("notYourself"),
        PASSWORD_CHANGED("passwordChanged"), NO_SUCH_USER("noSuchUser");

        private final String code;

        Notice(String code) {
            this.code = code;
        }

        static Notice of(String code) {
            return Arrays.stream(values()).filter(notice -> notice.code.equals(code)).findFirst().orElse(null);
        }
    }

    /** A user as the list shows it. */
    public record Row(String name, String role, Instant createdAt, Instant disabledAt, boolean mayDisable) {
    }

    /** A role the add form offers, and whether the form sent back had it chosen. */
    public record Role(String name, boolean chosen) {
    }

    /** What a form sent back with a mistake says: its mistake, and the name and role typed (never a password). */
    public record Mistake(String message, String name, String role) {

        static final Mistake NONE = new Mistake("", "", "customer");
    }

    private final UserAccounts accounts;
    private final UserConfig config;
    private final Pages pages;
    private final PageText text;
    private final SecurityIdentity identity;

    public ConsoleUsersPage(UserAccounts accounts, UserConfig config, Pages pages, PageText text, SecurityIdentity identity) {
        this.accounts = accounts;
        this.config = config;
        this.pages = pages;
        this.text = text;
        this.identity = identity;
    }

    @GET
    @Produces(MediaType.TEXT_HTML)
    @Operation(hidden = true)
    public Response show(@RestQuery String notice, @RestQuery String user) {
        Notice said = Notice.of(notice);
        return page(200, said == null ? "" : text.get("console_users_notice_" + said.code, Objects.requireNonNullElse(user, "")), Mistake.NONE,
                Mistake.NONE, null);
    }

    @POST
    @Produces(MediaType.TEXT_HTML)
    @Operation(hidden = true)
    public Response add(@RestForm String name, @RestForm String role, @RestForm String password, @RestForm String passwordAgain) {
        String named = Objects.requireNonNullElse(name, "");
        String chosen = Objects.requireNonNullElse(role, "");
        try {
            accounts.checkNameAndRole(named, chosen);
            if (!Objects.equals(password, passwordAgain)) {
                return page(400, "", new Mistake(text.get("console_users_mismatch"), named, chosen), Mistake.NONE, null);
            }
            if (!accounts.add(named, chosen, Objects.requireNonNullElse(password, ""))) {
                return back(Notice.TAKEN, named);
            }
        } catch (UserRuleBroken broken) {
            return page(400, "", new Mistake(ruleBroken(broken), named, chosen), Mistake.NONE, null);
        }
        LOG.infof("User %s added with role %s by %s", named, chosen, caller());
        return back(Notice.ADDED, named);
    }

    @POST
    @Path("{name}/disable")
    @Produces(MediaType.TEXT_HTML)
    @Operation(hidden = true)
    public Response disable(@RestPath String name, @RestForm String confirmed) {
        if (name.equals(caller())) {
            // An admin who shut themselves out could not undo it; another admin, or the operator, may.
            return back(Notice.NOT_YOURSELF, name);
        }
        if (!CONFIRMED.equals(confirmed)) {
            return page(200, "", Mistake.NONE, Mistake.NONE, name);
        }
        UserAccounts.Disabling done;
        try {
            UserAccounts.checkName(name);
            done = accounts.disable(name);
        } catch (UserRuleBroken noName) {
            done = UserAccounts.Disabling.NO_SUCH_USER;
        }
        return switch (done) {
            case DISABLED -> {
                LOG.infof("User %s disabled by %s", name, caller());
                yield back(Notice.DISABLED, name);
            }
            case ALREADY_DISABLED -> back(Notice.ALREADY_DISABLED, name);
            case NO_SUCH_USER -> back(Notice.NO_SUCH_USER, name);
        };
    }

    @POST
    @Path("password")
    @Produces(MediaType.TEXT_HTML)
    @Operation(hidden = true)
    public Response resetPassword(@RestForm String user, @RestForm String password, @RestForm String passwordAgain) {
        String named = Objects.requireNonNullElse(user, "");
        if (!Objects.equals(password, passwordAgain)) {
            return page(400, "", Mistake.NONE, new Mistake(text.get("console_users_mismatch"), named, ""), null);
        }
        try {
            UserAccounts.checkName(named);
            if (!accounts.resetPassword(named, Objects.requireNonNullElse(password, ""))) {
                return back(Notice.NO_SUCH_USER, named);
            }
        } catch (UserRuleBroken broken) {
            return page(400, "", Mistake.NONE, new Mistake(ruleBroken(broken), named, ""), null);
        }
        LOG.infof("Password of %s changed by %s", named, caller());
        return back(Notice.PASSWORD_CHANGED, named);
    }

    /** The page; a form sent back (400, nothing changed) shows its mistake, the other form's is {@link Mistake#NONE}. */
    private Response page(int status, String notice, Mistake add, Mistake password, String confirmDisable) {
        String self = caller();
        Map<String, Object> data = new HashMap<>();
        data.put("notice", notice);
        data.put("users", accounts.all().stream()
                .map(user -> new Row(user.name, user.role, user.createdAt, user.disabledAt, user.disabledAt == null && !user.name.equals(self)))
                .toList());
        data.put("roles", UserAccounts.ROLES.stream().map(role -> new Role(role, role.equals(add.role()))).toList());
        data.put("minPasswordLength", config.minPasswordLength());
        data.put("add", add);
        data.put("password", password);
        data.put("confirmDisable", confirmDisable);
        return pages.page(status, "console-users", data);
    }

    private String ruleBroken(UserRuleBroken broken) {
        return switch (broken.rule()) {
            case NAME -> text.get("console_users_rule_name");
            case ROLE -> text.get("console_users_rule_role");
            case PASSWORD_TOO_SHORT -> text.get("console_users_rule_passwordTooShort", broken.limit());
            case PASSWORD_TOO_LONG -> text.get("console_users_rule_passwordTooLong", broken.limit());
        };
    }

    /** The list again (303), saying what was done; the name goes in the address encoded, whatever was posted. */
    private static Response back(Notice notice, String name) {
        return Response.seeOther(URI.create(PATH + "?notice=" + notice.code + "&user=" + URLEncoder.encode(name, StandardCharsets.UTF_8))).build();
    }

    private String caller() {
        return identity.getPrincipal().getName();
    }
}
