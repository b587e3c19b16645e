-- The demo users' shipping addresses, used by their orders that name none (see R__demo_users.sql);
-- seeded only where demo_data is true. An address a user has changed since is left as it is.
INSERT INTO customer_addresses (customer, address, updated_at)
SELECT customer, CAST(address AS jsonb), now() FROM (VALUES
    ('alice', '{"name":"Alice Wang","lines":["Room 1203, 88 Huaihai Middle Road"],"city":"Shanghai","region":"Shanghai","postalCode":"200021","country":"CN","phone":"+86 21 5555 0101"}'),
    ('bob', '{"name":"Bob Li","lines":["Unit 5, 12 Gulou East Street","Dongcheng District"],"city":"Beijing","region":"Beijing","postalCode":"100009","country":"CN","phone":"+86 10 5555 0102"}'),
    ('ops', '{"name":"Orders Staff","lines":["Warehouse 3, 200 Jinke Road"],"city":"Shanghai","region":"Shanghai","postalCode":"201203","country":"CN","phone":"+86 21 5555 0103"}')
) AS demo (customer, address)
WHERE ${demo_data}
ON CONFLICT (customer) DO NOTHING;
