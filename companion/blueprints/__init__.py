"""Flask blueprints, one per area: pages (lobby, table, phone), host, records, sockets."""
