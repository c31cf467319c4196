-- The counter (D41, D42) and encomendas' catalog field (D44): the products' scale code, KG limits
-- and lead time. Nullable columns without defaults: added without rewriting the table.

-- D41: the product's code on the scale's labels, 1 to 6 digits (a layout's code holds 4 to 6).
ALTER TABLE products ADD COLUMN scale_code text CHECK (scale_code ~ '^[0-9]{1,6}$');
-- D42: the ordered quantity's limits (kg). The three come together or not at all.
ALTER TABLE products ADD COLUMN weight_min numeric(7, 3);
ALTER TABLE products ADD COLUMN weight_max numeric(7, 3);
ALTER TABLE products ADD COLUMN weight_step numeric(7, 3);
ALTER TABLE products ADD CONSTRAINT products_weight_check CHECK (
  (weight_min IS NULL AND weight_max IS NULL AND weight_step IS NULL)
  OR (weight_min > 0 AND weight_max >= weight_min AND weight_step > 0)
);
-- D44: the least time (hours) between intake and the start of a scheduled order's slot.
ALTER TABLE products ADD COLUMN lead_time_hours numeric(6, 2) CHECK (lead_time_hours >= 0);
