"""The API's own developer pages, working offline.

- `/docs` (Swagger UI) and `/redoc` load their scripts, styles and favicon from files an
  installed package ships (`fastapi-standalone-docs`: swagger-ui-dist, ReDoc's standalone
  bundle with its logo patched to a relative URL, FastAPI's favicon, and their licenses),
  served by this app under `/docs/assets/`, never from a CDN or Google Fonts.
- The LangServe playground draws its form from the input schema, and its form renderer
  cannot draw the `anyOf [X, {"type": "null"}]` pydantic writes for an optional field (it
  picks the last branch and fails with `Unknown type: {"type":"null"}`, a blank page).
  `drawable_input` gives LangServe the same model with a schema where such a field is
  `X` with `"type": [X's type, "null"]`: the same values are valid, so what the API accepts
  and its OpenAPI document do not change.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path
from typing import Any

from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import FileResponse, HTMLResponse
from pydantic import BaseModel

from core.errors import NotFoundError

ASSETS_PATH = "/docs/assets"
_STATIC = Path(str(files("fastapi_standalone_docs").joinpath("static")))
# "swagger/…", "redoc/…", "fastapi/…": looked up by exact name, so no path a request
# names can leave the directory.
_ASSETS = {f"{path.parent.name}/{path.name}": path for path in _STATIC.glob("*/*")}
_NULL = {"type": "null"}


def docs_asset(kind: str, name: str) -> FileResponse:
    """One of the packaged Swagger UI / ReDoc / FastAPI files (404 for any other name).
    ReDoc's bundle asks for its logo at `{page path}/logo-mini.svg`: `/redoc/logo-mini.svg`
    serves `docs_asset("redoc", "logo-mini.svg")`."""
    path = _ASSETS.get(f"{kind}/{name}")
    if path is None or not path.is_file():
        raise NotFoundError(f"No such documentation asset: {kind}/{name}", field="path")
    return FileResponse(path)


def swagger_page(root_path: str, openapi_path: str, title: str) -> HTMLResponse:
    assets = f"{root_path}{ASSETS_PATH}"
    return get_swagger_ui_html(
        openapi_url=f"{root_path}{openapi_path}",
        title=title,
        swagger_js_url=f"{assets}/swagger/swagger-ui-bundle.js",
        swagger_css_url=f"{assets}/swagger/swagger-ui.css",
        swagger_favicon_url=f"{assets}/fastapi/favicon.png",
        # No "valid" badge fetched from validator.swagger.io.
        swagger_ui_parameters={"validatorUrl": None},
    )


def redoc_page(root_path: str, openapi_path: str, title: str) -> HTMLResponse:
    assets = f"{root_path}{ASSETS_PATH}"
    return get_redoc_html(
        openapi_url=f"{root_path}{openapi_path}",
        title=title,
        redoc_js_url=f"{assets}/redoc/redoc.standalone.js",
        redoc_favicon_url=f"{assets}/fastapi/favicon.png",
        with_google_fonts=False,
    )


def drawable_schema(schema: Any) -> Any:
    """A copy of a JSON schema with every `anyOf` that allows null rewritten so the
    playground's form renderer can draw it; the set of valid values stays the same where
    the remaining branch has a plain `type` (every optional field of our contract)."""
    if isinstance(schema, list):
        return [drawable_schema(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    node = {key: drawable_schema(value) for key, value in schema.items()}
    branches = node.get("anyOf")
    if not isinstance(branches, list) or _NULL not in branches:
        return node
    rest = {key: value for key, value in node.items() if key != "anyOf"}
    others = [branch for branch in branches if branch != _NULL]
    if len(others) == 1 and isinstance(others[0].get("type"), str):
        return {**others[0], **rest, "type": [others[0]["type"], "null"]}
    # Not expressible as one nullable type: drop the null branch and a null default (the
    # form then leaves the field out, which the model's default of None covers).
    if rest.get("default", 0) is None:
        del rest["default"]
    return {**others[0], **rest} if len(others) == 1 else {**rest, "anyOf": others}


def drawable_input(model: type[BaseModel]) -> type[BaseModel]:
    """`model` for LangServe's `input_type`: a subclass with the same name, fields and
    validators, whose `model_json_schema()` (what the playground and `/input_schema`
    serve) is `drawable_schema` of the original. FastAPI's OpenAPI document is generated
    from the fields, not from this method, and stays as it was."""

    def model_json_schema(cls: type[BaseModel], *args: Any, **kwargs: Any) -> dict[str, Any]:
        return drawable_schema(model.model_json_schema(*args, **kwargs))

    namespace = {
        "__module__": model.__module__,
        "__qualname__": model.__qualname__,
        "__doc__": model.__doc__,
        "model_json_schema": classmethod(model_json_schema),
    }
    return type(model.__name__, (model,), namespace)
