"""The operators' view of a running process: the scrape-time collector, HTTP metrics and JSON access logs,
event-loop lag and GC pauses.  The metrics themselves are declared in ``app.metrics``."""
