// PostgreSQL as a fleet's catalog and work queue (see CatalogStore in DarkroomCore).
