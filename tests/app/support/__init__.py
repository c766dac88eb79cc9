"""What the app tests share besides fixtures: the in-process table harness, real server processes (one, or a
cluster on one Postgres and one Redis), the restart tests' trace check and the metrics scrape.  Fixtures stay in
tests/app/conftest.py, which pytest shows to every folder below it."""
