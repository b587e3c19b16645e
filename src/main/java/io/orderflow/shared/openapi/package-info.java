/**
 * The OpenAPI document's parts that belong to no one resource: how a caller signs in (HTTP Basic
 * or a JWT bearer token), the groups of operations, and the problem detail of every error answer.
 * SmallRye reads an {@code @OpenAPIDefinition} from a package like this one (or a JAX-RS
 * Application, which this service has none of).
 */
@OpenAPIDefinition(
        info = @Info(title = "Order workflow engine", version = "1",
                description = "Takes orders exactly once (one-time order tokens, Idempotency-Key) and moves them through their "
                        + "lifecycle. Every error answer is an RFC 9457 problem detail (application/problem+json) whose `code` "
                        + "is stable; each response lists the codes it can carry."),
        tags = {
                @Tag(name = ApiDocument.ORDERS, description = "Order tokens, orders and their transitions"),
                @Tag(name = ApiDocument.PRODUCTS, description = "The catalog: products, prices and stock"),
                @Tag(name = ApiDocument.OPERATIONS, description = "For staff: the outbox's dead letters, payment reconciliation and refunds the provider refused"),
                @Tag(name = ApiDocument.SANDBOX, description = "The built-in sandbox payment provider and warehouse, served in the "
                        + "dev, test and demo profiles only; like third-party APIs they take their own secret API key, or staff") },
        components = @Components(
                securitySchemes = {
                        @SecurityScheme(securitySchemeName = ApiDocument.BASIC, type = SecuritySchemeType.HTTP, scheme = "basic",
                                description = "A user's name and password"),
                        @SecurityScheme(securitySchemeName = ApiDocument.BEARER, type = SecuritySchemeType.HTTP, scheme = "bearer",
                                bearerFormat = "JWT", description = "A signed JWT: the caller is its subject, its groups the roles"),
                        @SecurityScheme(securitySchemeName = ApiDocument.SANDBOX_KEY, type = SecuritySchemeType.HTTP, scheme = "bearer",
                                description = "The sandbox providers' secret API key (orders.sandbox.api-key), as a real provider's"),
                        @SecurityScheme(securitySchemeName = ApiDocument.PROVIDER_SIGNATURE, type = SecuritySchemeType.APIKEY,
                                in = SecuritySchemeIn.HEADER, apiKeyName = "Provider-Signature",
                                description = "The payment provider's signature of its notification: t=<unix seconds>,v1=<hex HMAC-SHA256 "
                                        + "of \"t.body\" with orders.payments.events.secret>") },
                schemas = @Schema(name = ApiDocument.PROBLEM, type = SchemaType.OBJECT,
                        requiredProperties = { "type", "title", "status", "code" },
                        description = "An RFC 9457 problem detail; members beyond these depend on the code",
                        additionalProperties = Schema.True.class,
                        properties = {
                                @SchemaProperty(name = "type", type = SchemaType.STRING, examples = "/problems/order-not-found"),
                                @SchemaProperty(name = "title", type = SchemaType.STRING),
                                @SchemaProperty(name = "status", type = SchemaType.INTEGER, format = "int32"),
                                @SchemaProperty(name = "detail", type = SchemaType.STRING),
                                @SchemaProperty(name = "code", type = SchemaType.STRING, examples = "order-not-found",
                                        description = "Stable and machine-readable; the codes an answer can carry are in its description"),
                                @SchemaProperty(name = "errors", type = SchemaType.ARRAY, implementation = FieldError.class,
                                        description = "validation-failed: each wrong field"),
                                @SchemaProperty(name = "currentStatus", type = SchemaType.STRING, description = "invalid-transition"),
                                @SchemaProperty(name = "allowedActions", type = SchemaType.ARRAY, implementation = String.class,
                                        description = "invalid-transition: what the caller may do now"),
                                @SchemaProperty(name = "items", type = SchemaType.ARRAY, implementation = Object.class,
                                        description = "price-changed: sku and current unitPrice; out-of-stock: sku, requested, available"),
                                @SchemaProperty(name = "shortages", type = SchemaType.ARRAY, implementation = Object.class,
                                        description = "price-changed: the lines short of stock as well (sku, requested, available), if any"),
                                @SchemaProperty(name = "onHand", type = SchemaType.INTEGER,
                                        description = "insufficient-stock, stock-limit-exceeded"),
                                @SchemaProperty(name = "reserved", type = SchemaType.INTEGER,
                                        description = "insufficient-stock, stock-limit-exceeded"),
                                @SchemaProperty(name = "available", type = SchemaType.INTEGER,
                                        description = "insufficient-stock, stock-limit-exceeded"),
                                @SchemaProperty(name = "incident", type = SchemaType.STRING,
                                        description = "internal-error: quote it when reporting") })))
package io.orderflow.shared.openapi;

import org.eclipse.microprofile.openapi.annotations.OpenAPIDefinition;
import org.eclipse.microprofile.openapi.annotations.Components;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.enums.SecuritySchemeIn;
import org.eclipse.microprofile.openapi.annotations.enums.SecuritySchemeType;
import org.eclipse.microprofile.openapi.annotations.info.Info;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.media.SchemaProperty;
import org.eclipse.microprofile.openapi.annotations.security.SecurityScheme;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import io.orderflow.shared.problem.FieldError;

