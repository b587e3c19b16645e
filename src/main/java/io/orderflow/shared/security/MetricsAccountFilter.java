package io.orderflow.shared.security;

import jakarta.ws.rs.container.ContainerRequestContext;

import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import io.quarkus.security.ForbiddenException;

/**
 * A metrics account (the monitoring system's, role {@value Caller#METRICS}) reads {@code /q/metrics},
 * which is no endpoint of these resources, and nothing else: every endpoint answers it 403 (a POST
 * before its body is read: shared.http.CredentialsBeforeBody). Its password then opens no order, page or action if it leaks from a scrape's
 * configuration.
 */
public class MetricsAccountFilter {

    @ServerRequestFilter
    public void refuseMetricsAccounts(ContainerRequestContext request) {
        if (request.getSecurityContext().isUserInRole(Caller.METRICS)) {
            throw new ForbiddenException();
        }
    }
}
