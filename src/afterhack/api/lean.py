"""LeanRoute: a route whose ordinary request skips FastAPI's per-request machinery.

FastAPI's handler does the same work for every request whatever the route needs: telemetry
hooks, an endpoint context for error messages, the content type parsed through
``email.message``, the body decoded with ``json`` and then validated, every dependency
solved through a generic resolver with its exit stacks. On the correction preview (the read
a review repeats for every claim it looks at) that was a fifth of the app's CPU per request.

A LeanRoute keeps the route exactly as declared (same signature, same OpenAPI operation, same
permission) and answers the common request directly: ``content-type: application/json``
and a body that validates as the route's body model. Then it calls the route's dependencies
in FastAPI's order and the endpoint, with the same arguments FastAPI would have passed.
Anything else (another content type, a body that does not parse or does not validate)
goes to FastAPI's own handler, with the body already read, so every error answer is the
one FastAPI gives (tests/test_lean_route.py compares both paths on random bodies).

Only routes whose pieces are that simple can be lean; the class refuses anything else when
the app is built (query, header or cookie parameters, constrained or non-str path
parameters, more than one body, nested dependencies, a non-async endpoint, a route-level
body size limit).
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from fastapi import routing as fastapi_routing
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute
from pydantic import BaseModel, ValidationError
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

Handler = Callable[[Request], Coroutine[Any, Any, Response]]


@dataclass(frozen=True)
class _Call:
    """One call FastAPI would make: the callable, its plain str path parameters (argument
    name, path name) and the argument that takes the Request, if any."""

    call: Callable[..., Awaitable[Any]]
    path_params: tuple[tuple[str, str], ...]
    request_arg: str | None
    name: str | None  # the endpoint argument its value goes to; None for route dependencies

    def kwargs(self, request: Request) -> dict[str, Any]:
        params = request.path_params
        out: dict[str, Any] = {arg: params[alias] for arg, alias in self.path_params}
        if self.request_arg is not None:
            out[self.request_arg] = request
        return out


def _is_async(call: Any) -> bool:
    return inspect.iscoroutinefunction(call) or inspect.iscoroutinefunction(
        getattr(call, "__call__", None))  # noqa: B004 - an instance with async __call__


def _simple_call(dep: Dependant, where: str, *, endpoint: bool = False) -> _Call:
    """The endpoint may have dependencies and a body (checked on their own); a dependency
    may have neither."""
    refused = [kind for kind, present in (
        ("query parameters", dep.query_params), ("header parameters", dep.header_params),
        ("cookie parameters", dep.cookie_params),
        ("nested dependencies", not endpoint and dep.dependencies),
        ("a body in a dependency", not endpoint and dep.body_params),
        ("a Response parameter", dep.response_param_name),
        ("background tasks", dep.background_tasks_param_name),
        ("security scopes", dep.security_scopes_param_name),
        ("a websocket", dep.websocket_param_name),
        ("an HTTP connection", dep.http_connection_param_name)) if present]
    if refused:
        raise TypeError(f"LeanRoute {where}: {', '.join(refused)} need FastAPI's handler")
    if dep.call is None or not _is_async(dep.call):
        raise TypeError(f"LeanRoute {where}: {dep.call!r} must be async")
    for f in dep.path_params:
        if f.field_info.annotation is not str or f.field_info.metadata:
            raise TypeError(f"LeanRoute {where}: path parameter {f.name} must be a plain str")
    return _Call(call=dep.call, path_params=tuple((f.name, f.alias) for f in dep.path_params),
                 request_arg=dep.request_param_name, name=dep.name)


def _body_model(dep: Dependant, embedded: bool, where: str) -> tuple[str, type[BaseModel]]:
    if len(dep.body_params) != 1 or embedded:
        raise TypeError(f"LeanRoute {where}: needs exactly one body, not embedded")
    field = dep.body_params[0]
    model = field.field_info.annotation
    if not (isinstance(model, type) and issubclass(model, BaseModel)):
        raise TypeError(f"LeanRoute {where}: the body must be a pydantic model")
    return field.name, model


class LeanRoute(APIRoute):
    def get_route_handler(self) -> Handler:
        standard = super().get_route_handler()
        # Served through an include_router, the route's effective form (prefix, the
        # includer's dependencies) is what FastAPI itself builds the handler from.
        effective = fastapi_routing._effective_route_context_var.get()
        route: Any = (effective if effective is not None and effective.original_route is self
                      else self)
        where = f"{sorted(self.methods or ())} {route.path_format}"
        dependant: Dependant = route.dependant
        deps = tuple(_simple_call(d, where) for d in dependant.dependencies)
        if len({id(d.call) for d in deps}) != len(deps):
            # FastAPI would call a repeated dependency once and share its value.
            raise TypeError(f"LeanRoute {where}: a dependency is declared twice")
        endpoint = _simple_call(dependant, where, endpoint=True)
        if getattr(route, "max_body_size", None) is not None:
            # FastAPI answers its own body limit with 413; the app's BodyLimit is the one used.
            raise TypeError(f"LeanRoute {where}: a route body limit needs FastAPI's handler")
        body_arg, model = _body_model(dependant, route._embed_body_fields, where)
        return _lean_handler(standard, deps, endpoint, body_arg, model)


def _lean_handler(standard: Handler, deps: tuple[_Call, ...], endpoint: _Call, body_arg: str,
                  model: type[BaseModel]) -> Handler:
    async def handler(request: Request) -> Response:
        if (request.headers.get("content-type") != "application/json"
                or request.app.dependency_overrides):
            return await standard(request)
        try:
            raw = await request.body()
        except HTTPException:  # the body limit's 413: FastAPI lets it through as well
            raise
        except Exception as e:  # as FastAPI answers a body it could not read
            raise HTTPException(400, "There was an error parsing the body") from e
        try:
            body = model.model_validate_json(raw)
        except ValidationError:
            return await standard(request)  # reads the cached body; its errors are FastAPI's
        kwargs = endpoint.kwargs(request)
        for dep in deps:
            value = await dep.call(**dep.kwargs(request))
            if dep.name is not None:
                kwargs[dep.name] = value
        kwargs[body_arg] = body
        response = await endpoint.call(**kwargs)
        if not isinstance(response, Response):
            raise TypeError("a LeanRoute endpoint returns a Response")
        return response

    return handler
