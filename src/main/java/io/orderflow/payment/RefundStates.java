package io.orderflow.payment;

import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.Tuple;
import jakarta.transaction.Transactional;

import io.orderflow.order.FollowUps;
import io.orderflow.order.OrderView;
import io.orderflow.shared.money.Money;

/**
 * Where the refund of a cancelled order's payment stands, as its customer reads it: made once the payment is
 * REFUNDED (by the provider, or settled by staff as given back outside), refused while its message waits for
 * staff with the provider's refusal, owed until then.
 */
@ApplicationScoped
class RefundStates implements FollowUps.Refunds {

    private static final String STATE = """
            SELECT p.amount, p.currency, p.status, o.status AS message_status, o.last_error_message AS refusal
            FROM payments p LEFT JOIN outbox o ON o.idempotency_key = 'refund:' || CAST(p.order_id AS text)
            WHERE p.order_id = :orderId AND p.status IN ('SUCCESS', 'REFUNDED')
            ORDER BY p.id LIMIT 1""";

    private final EntityManager db;

    RefundStates(EntityManager db) {
        this.db = db;
    }

    @Override
    @Transactional(Transactional.TxType.SUPPORTS)
    public Optional<OrderView.Refund> of(UUID orderId) {
        List<Tuple> rows = db.createNativeQuery(STATE, Tuple.class).setParameter("orderId", orderId).getResultList();
        return rows.stream().findFirst().map(row -> {
            String currency = ((String) row.get("currency")).strip();
            String amount = Money.format((BigDecimal) row.get("amount"), currency);
            if ("REFUNDED".equals(row.get("status"))) {
                return new OrderView.Refund("made", amount, currency, null);
            }
            if ("REFUSED".equals(row.get("message_status"))) {
                return new OrderView.Refund("refused", amount, currency, (String) row.get("refusal"));
            }
            return new OrderView.Refund("owed", amount, currency, null);
        });
    }
}
