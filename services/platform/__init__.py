"""What every process of the service stands on: settings, database pools and migrations, the
embedded PostgreSQL and Redis, the launcher of `empyrean up`, API tokens, metrics and the choice of
engine build."""
