"""HTTP and WebSocket routes."""
