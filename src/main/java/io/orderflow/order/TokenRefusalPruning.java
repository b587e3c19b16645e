package io.orderflow.order;

import java.time.Instant;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.orderflow.shared.StopsWithTheApp;
import io.orderflow.token.TokenConfig;
import io.quarkus.scheduler.Scheduled;

/**
 * Deletes the refusals of order tokens once no request can still hold the token, on every instance
 * (each deletes what is due; a second one finds nothing left).
 */
@ApplicationScoped
class TokenRefusalPruning {

    private static final Logger LOG = Logger.getLogger(TokenRefusalPruning.class);

    private final OrderStore store;
    private final TokenConfig config;

    public TokenRefusalPruning(OrderStore store, TokenConfig config) {
        this.store = store;
        this.config = config;
    }

    @StopsWithTheApp
    @Scheduled(every = "${orders.tokens.refusal-prune-interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP, delayed = "1m")
    public void prune() {
        int pruned = store.pruneRefusals(Instant.now().minus(config.refusalRetention()));
        if (pruned > 0) {
            LOG.infof("Forgot %d refused order tokens", pruned);
        }
    }
}
