"""Every REST error as ``{"detail": <English>, "code": <ErrorCode>, "params": {...}}`` (docs/errors.md).

Service errors carry their own code; FastAPI's validation errors become ``invalid_input`` (or the code of
the ``InvalidInput`` a validator raised) naming the field and its bounds; plain HTTP errors get the generic
code of their status.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from app import metrics
from app.services.errors import ErrorCode, ServiceError

log = logging.getLogger(__name__)

_BY_STATUS = {401: ErrorCode.NOT_AUTHENTICATED, 403: ErrorCode.FORBIDDEN, 404: ErrorCode.NOT_FOUND,
              405: ErrorCode.METHOD_NOT_ALLOWED, 409: ErrorCode.CONFLICT, 422: ErrorCode.INVALID_INPUT,
              429: ErrorCode.RATE_LIMITED}
# pydantic's context keys → our params (the bounds a client shows: "at most 200")
_BOUNDS = {"ge": "minimum", "gt": "above", "le": "maximum", "lt": "below", "min_length": "minimum",
           "max_length": "maximum", "expected": "choices"}


def error_response(code: ErrorCode, detail: str, params: dict[str, Any] | None = None, *,
                   status: int | None = None, headers: dict[str, str] | None = None) -> JSONResponse:
    metrics.error_sent(code.value)  # every REST refusal passes here
    return JSONResponse({"detail": detail, "code": code.value, "params": params or {}},
                        status_code=status or code.status or 400, headers=headers)


def _field(loc: tuple[Any, ...]) -> str:
    # ("body", "options", "cap") → "options.cap"; ("query", "limit") → "limit"
    parts = [str(p) for p in loc if p not in ("body", "query", "path", "header")]
    return ".".join(parts) or "body"


def _one(error: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"field": _field(tuple(error.get("loc", ()))), "reason": error.get("type", "")}
    for key, value in (error.get("ctx") or {}).items():
        if key in _BOUNDS and isinstance(value, int | float | str):
            out[_BOUNDS[key]] = value
    return out


def validation_response(exc: RequestValidationError) -> JSONResponse:
    errors = list(exc.errors())
    # A validator that raised InvalidInput (e.g. the username rules) keeps that error's code and params.
    for error in errors:
        cause = (error.get("ctx") or {}).get("error")
        if isinstance(cause, ServiceError):
            # The field is where pydantic found it (a shared validator cannot know its field's name).
            return error_response(cause.code, cause.message, {**cause.params,
                                                              "field": _field(tuple(error["loc"]))})
    items = [_one(e) for e in errors[:10]]
    detail = "; ".join(f"{i['field']}: {e.get('msg', 'invalid')}" for i, e in zip(items, errors, strict=False))
    params = {**(items[0] if items else {}), "errors": items}
    return error_response(ErrorCode.INVALID_INPUT, detail or "invalid input", params)


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(ServiceError)
    async def _service_error(_request: Request, exc: ServiceError) -> JSONResponse:
        return error_response(exc.code, exc.message, exc.params, status=exc.status, headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        return validation_response(exc)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = _BY_STATUS.get(exc.status_code, ErrorCode.INTERNAL if exc.status_code >= 500 else
                              ErrorCode.INVALID_INPUT)
        detail = exc.detail if isinstance(exc.detail, str) else code.doc
        return error_response(code, detail, status=exc.status_code, headers=getattr(exc, "headers", None))

    @app.exception_handler(Exception)
    async def _crash(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unhandled error on %s %s", request.method, request.url.path)
        return error_response(ErrorCode.INTERNAL, "internal server error")
