"""Errors a player or admin can cause.  The API layer maps each kind to a 4xx and shows the message.

Programming errors by callers inside the server (a bad seat index from a table actor) stay plain
ValueError/TypeError: they are bugs, not requests to refuse.
"""

from __future__ import annotations


class ServiceError(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NotFound(ServiceError):
    pass


class Conflict(ServiceError):
    """The request clashes with the current state (a taken name, a taken seat, too few coins)."""


class Forbidden(ServiceError):
    pass


class InvalidInput(ServiceError):
    pass
