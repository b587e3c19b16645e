-- Demo users, seeded only where the placeholder demo_data is true: the dev, test and demo profiles,
-- never production (see application.properties and R__demo_products.sql). alice/alice and bob/bob
-- are customers, ops/ops is staff. Their passwords are public, so they are hashed at bcrypt's lowest
-- cost (4): HTTP Basic checks the password on every request, and tests, the benchmark and the proof
-- under faults send tens of thousands of them. Users the operator adds get orders.users.bcrypt-cost.
-- A user who is already there is left as it is.
INSERT INTO users (name, password, role)
SELECT * FROM (VALUES
    ('alice', '$2a$04$wE8gU49OSShhmwVjksWm7.qbOUzUbbV0j.Q3mDX874Eyw7GFD4M.u', 'customer'),
    ('bob', '$2a$04$tur64RtrFGamuvhSvjrusuKNf4QNrzeI30PCaFTQACoOySrQ2HJCe', 'customer'),
    ('ops', '$2a$04$ZDRyfKb1UG2kPMwnxWBC7uIAPqu89XkiBBRdwd92qTH5QQG7KZa7W', 'staff')
) AS demo (name, password, role)
WHERE ${demo_data}
ON CONFLICT (name) DO NOTHING;
