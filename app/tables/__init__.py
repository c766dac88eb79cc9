"""Tables: the in-memory registry and seating."""
