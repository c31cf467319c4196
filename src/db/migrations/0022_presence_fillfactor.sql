-- A key's presence row is rewritten at every flush in which the key made a request: with 100,000
-- POS polling every 30 s, every row about every 30 s. With full pages each such update put the
-- new row version on another page and added an entry to both indexes; with free room on the page
-- PostgreSQL updates in place of an index entry (a heap-only tuple: no column of an index changes).
-- Measured on 100,000 rows updated in batches of 1,650, as the usage recorder writes them: 16–17
-- µs of the backend's CPU per row at the default fill factor, 7–8 µs at 60, where about four
-- updates in five were heap-only (docs/benchmarks.md, "Figures of 2026-11-28, 10:00–12:30 UTC").
-- The rows are small and one per key, so the room costs little space. Pages already full get their
-- room as their rows move: no rewrite, no lock beyond the ALTER's own.
ALTER TABLE key_presence SET (fillfactor = 60);
