-- Demo catalog, loaded only where the placeholder demo_data is true: the dev, test and demo
-- profiles, never production (see application.properties). Flyway counts the placeholder's value
-- in this migration's checksum, so a database first run without it gets the catalog when a demo
-- profile starts on it. A product that is already there is left as it is, so running this again
-- changes nothing staff did to it. ABC-1 and DECLINE-51 have stock for tens of thousands of test
-- orders; DECLINE-51's price ends in .51, which the sandbox payment provider declines.
INSERT INTO products (sku, name, description, price, currency, active, on_hand)
SELECT * FROM (VALUES
    ('ABC-1', 'Notebook', 'A5 notebook, 96 dotted pages of 100 g/m² paper, lies flat when open.', 12.50, 'CNY', true, 1000000),
    ('DECLINE-51', 'Declined-payment test item', 'Priced to end in .51, so the sandbox payment provider declines its orders.', 12.51, 'CNY', true, 1000000),
    ('TEA-LONGJING-250', 'Longjing green tea, 250 g', 'Spring harvest from Hangzhou, pan-fired by hand; sealed tin.', 168.00, 'CNY', true, 120),
    ('MUG-CELADON-350', 'Celadon mug, 350 ml', 'Longquan celadon glaze over stoneware; dishwasher safe.', 79.00, 'CNY', true, 240),
    ('PEN-FOUNTAIN-F', 'Fountain pen, fine nib', 'Brass body, steel fine nib, converter and five ink cartridges included.', 129.90, 'CNY', true, 60),
    ('BAG-CANVAS-TOTE', 'Canvas tote bag', 'Heavy cotton canvas with an inner pocket; carries a 15-inch laptop.', 59.00, 'CNY', true, 500),
    ('LAMP-DESK-LED', 'LED desk lamp', 'Dimmable, three colour temperatures, USB-C powered.', 199.00, 'CNY', true, 50),
    ('CAL-WALL-2025', 'Wall calendar 2025', 'Twelve ink-wash landscapes. No longer sold.', 35.00, 'CNY', false, 40)
) AS demo (sku, name, description, price, currency, active, on_hand)
WHERE ${demo_data}
ON CONFLICT (sku) DO NOTHING;
